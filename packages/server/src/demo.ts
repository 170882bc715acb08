import { issueKey } from './keys/issue.js';
import { stockText } from './store/items/stock.js';
import type { ItemFields, ItemStatus, Organization, Store } from './store/types.js';

/** A small, realistic catalogue so a first run has something to query. */
const CATALOGUE: Array<[string, string, ItemStatus, number, Record<string, unknown>]> = [
  [
    'Trail Runner 2 Shoe',
    'Lightweight trail running shoe with a rock plate and 4 mm drop.',
    'Active',
    42,
    { color: 'Slate', sizes: [40, 41, 42, 43, 44], weightGrams: 280 },
  ],
  [
    'Summit 45 Backpack',
    '45-litre alpine pack with a removable lid and ice-axe loops.',
    'Active',
    18,
    { color: 'Ember', volumeLiters: 45, warrantyYears: 5 },
  ],
  [
    'Down Parka 800',
    'Hooded parka filled with 800-fill-power responsibly sourced down.',
    'Active',
    9,
    { color: 'Black', fillPower: 800, sizes: ['S', 'M', 'L', 'XL'] },
  ],
  [
    'Merino Base Layer Crew',
    '200 g/m² merino wool long-sleeve base layer.',
    'Active',
    65,
    { material: 'merino', weightGsm: 200 },
  ],
  [
    'Ultralight Tent 2P',
    'Two-person freestanding tent, 1.1 kg packed.',
    'Active',
    7,
    { capacity: 2, packedWeightKg: 1.1, seasons: 3 },
  ],
  [
    'Headlamp 400',
    'Rechargeable 400-lumen headlamp with red night mode.',
    'Active',
    120,
    { lumens: 400, batteryMah: 1500, waterproof: 'IPX4' },
  ],
  [
    'Trekking Poles Carbon',
    'Pair of collapsible carbon trekking poles with cork grips.',
    'Active',
    31,
    { material: 'carbon', lengthCm: [110, 130] },
  ],
  [
    'Sleeping Bag -5°C',
    'Mummy sleeping bag rated to -5 °C comfort.',
    'Active',
    14,
    { comfortCelsius: -5, lengthCm: 210 },
  ],
  [
    'Insulated Bottle 750 ml',
    'Double-wall stainless steel bottle keeps drinks cold for 24 h.',
    'Active',
    210,
    { volumeMl: 750, colors: ['Moss', 'Sand', 'Ocean'] },
  ],
  [
    'Camp Stove Mini',
    'Compact canister stove, boils a litre in 3.5 minutes.',
    'Active',
    38,
    { fuel: 'isobutane', boilTimeSeconds: 210 },
  ],
  [
    'Rain Shell Jacket',
    'Three-layer waterproof breathable shell with pit zips.',
    'Active',
    22,
    { waterproofMm: 20000, sizes: ['S', 'M', 'L'] },
  ],
  [
    'Climbing Harness Pro',
    'Adjustable sport-climbing harness with four gear loops.',
    'Active',
    16,
    { gearLoops: 4, certified: 'UIAA' },
  ],
  [
    'Dynamic Rope 9.5 mm',
    '60 m dry-treated dynamic single rope.',
    'Active',
    11,
    { diameterMm: 9.5, lengthM: 60, dryTreated: true },
  ],
  ['Chalk Bag', 'Drawstring chalk bag with brush holder.', 'Active', 84, { color: 'Teal' }],
  [
    'Water Filter Squeeze',
    'Hollow-fibre squeeze filter, 0.1 micron.',
    'Active',
    57,
    { microns: 0.1, litersLifetime: 380000 },
  ],
  [
    'Trail Gaiters',
    'Low gaiters that keep grit out of trail shoes.',
    'Active',
    46,
    { sizes: ['S/M', 'L/XL'] },
  ],
  ['Bivy Sack', 'Waterproof emergency bivy, 240 g.', 'Active', 19, { weightGrams: 240 }],
  ['Camp Chair Lite', 'Packable camp chair, holds 120 kg.', 'Active', 27, { maxLoadKg: 120 }],
  [
    'Titanium Spork',
    'Long-handled titanium spork.',
    'Active',
    300,
    { material: 'titanium', lengthMm: 220 },
  ],
  [
    'First Aid Kit Hiker',
    'First aid kit for two people on a three-day trip.',
    'Active',
    40,
    { people: 2, days: 3 },
  ],
  [
    'Fleece Midlayer',
    'Grid fleece pullover for high-output activities.',
    'Active',
    33,
    { weightGsm: 150 },
  ],
  [
    'Approach Shoe',
    'Sticky-rubber approach shoe for scrambling.',
    'Active',
    12,
    { sizes: [39, 40, 41, 42, 43, 44, 45] },
  ],
  ['Bear Canister', 'Hard-sided food canister, 11.5 litres.', 'Active', 6, { volumeLiters: 11.5 }],
  [
    'Solar Panel 21 W',
    'Foldable 21 W solar charger with two USB ports.',
    'Active',
    15,
    { watts: 21, ports: ['USB-A', 'USB-C'] },
  ],
  [
    'Avalanche Beacon',
    'Three-antenna digital avalanche transceiver.',
    'Active',
    5,
    { antennas: 3, rangeM: 50 },
  ],
  [
    'Snowshoes 25"',
    'Aluminium-frame snowshoes with heel lifts.',
    'Active',
    10,
    { lengthInches: 25 },
  ],
  [
    'Kids Rain Jacket',
    'Waterproof jacket for children aged 4–10.',
    'Draft',
    0,
    { ageRange: '4-10' },
  ],
  [
    'Packraft Solo',
    'One-person inflatable packraft, 2.9 kg.',
    'Draft',
    0,
    { weightKg: 2.9, launch: 'spring' },
  ],
  ['Hammock Ultralight', 'Single hammock with integrated bug net.', 'Draft', 0, { bugNet: true }],
  [
    'GPS Watch Trail',
    'Multi-band GPS watch with offline maps.',
    'Draft',
    0,
    { batteryHours: 40, maps: true },
  ],
  ['Wool Beanie', 'Ribbed merino beanie.', 'Draft', 0, { material: 'merino' }],
  ['Cooking Pot 1.3 L', 'Hard-anodised aluminium pot with lid.', 'Draft', 0, { volumeLiters: 1.3 }],
  ['Down Booties', 'Down-filled camp booties.', 'Draft', 0, { sizes: ['S', 'M', 'L'] }],
  [
    'Crampons Steel 12pt',
    '12-point steel crampons for mountaineering.',
    'Inactive',
    3,
    { points: 12, material: 'steel' },
  ],
  ['Ice Axe Classic', 'Classic mountaineering ice axe, 60 cm.', 'Inactive', 4, { lengthCm: 60 }],
  ['Canvas Tarp 3x3', 'Heavy canvas tarp, seasonal item.', 'Inactive', 8, { sizeM: [3, 3] }],
  ['Snow Gaiters', 'Tall gaiters for deep snow, winter only.', 'Inactive', 20, { height: 'tall' }],
  ['Paddle Carbon 4pc', 'Four-piece carbon paddle for packrafts.', 'Inactive', 2, { pieces: 4 }],
  [
    'Bike Bag Frame',
    'Frame bag for bikepacking, out of season.',
    'Inactive',
    11,
    { volumeLiters: 4 },
  ],
  ['Rope Bag', 'Rope bag with tarp, paused while restyled.', 'Inactive', 9, {}],
  [
    'Trail Runner 1 Shoe',
    'Previous generation of the Trail Runner.',
    'Discontinued',
    2,
    { replacedBy: 'TR2-SHOE' },
  ],
  [
    'Summit 40 Backpack',
    'Previous 40-litre version of the Summit pack.',
    'Discontinued',
    1,
    { replacedBy: 'SUM45-PACK' },
  ],
  ['Headlamp 250', 'Older 250-lumen headlamp.', 'Discontinued', 0, { lumens: 250 }],
  [
    'Gas Lantern',
    'Canister lantern, discontinued for safety recall.',
    'Discontinued',
    0,
    { recall: true },
  ],
  [
    'Cotton Hoodie Logo',
    'Logo hoodie from the 2024 collection.',
    'Discontinued',
    5,
    { collection: 2024 },
  ],
  ['Map Case', 'Clear waterproof map case.', 'Discontinued', 13, {}],
  ['Sun Hat Wide Brim', 'UPF 50 wide-brim sun hat.', 'Active', 58, { upf: 50 }],
  [
    'Glacier Glasses',
    'Category 4 glacier sunglasses with side shields.',
    'Active',
    17,
    { category: 4 },
  ],
  ['Emergency Whistle', '120 dB pealess safety whistle.', 'Active', 400, { decibels: 120 }],
  ['Repair Tape Kit', 'Fabric repair tape for tents and jackets.', 'Active', 150, { pieces: 6 }],
];

function sku(name: string, index: number): string {
  const letters = name
    .toUpperCase()
    .replace(/[^A-Z0-9 ]/g, '')
    .split(' ')
    .map((word) => word.slice(0, 3))
    .join('')
    .slice(0, 9);
  return `${letters}-${String(1000 + index)}`;
}

/** EAN-13 with a valid check digit, from a fixed company prefix. */
function ean13(index: number): string {
  const body = `590123${String(412000 + index).padStart(6, '0')}`;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(body[i]) * (i % 2 === 0 ? 1 : 3);
  return body + String((10 - (sum % 10)) % 10);
}

/** The demo organization's locations (issue 31). */
export const DEMO_LOCATIONS = [
  { code: 'WH-1', name: 'Central warehouse' },
  { code: 'SHOP', name: 'Flagship store' },
  { code: 'OUTLET', name: 'Outlet store' },
] as const;

/**
 * Where an item's units are: most of an active line in the warehouse, the rest on the shop
 * floor; discontinued lines sold off at the outlet; drafts not stocked anywhere yet.
 */
function demoStock(status: ItemStatus, quantity: number): Record<string, number> | undefined {
  if (status === 'Draft') return undefined;
  if (status === 'Discontinued') return { OUTLET: quantity };
  const shop = Math.min(quantity, Math.round(quantity * 0.25));
  return { 'WH-1': quantity - shop, SHOP: shop };
}

export function demoItems(): ItemFields[] {
  return CATALOGUE.map(([name, description, status, quantity, customFields], index) => {
    const stock = demoStock(status, quantity);
    return {
      name,
      description,
      sku: sku(name, index),
      barcode: ean13(index),
      status,
      quantity,
      ...(stock === undefined ? {} : { stock: stockText(stock) }),
      customFields: JSON.stringify(customFields),
    };
  });
}

export interface DemoSeed {
  organization: Organization;
  /** The id of the demo key, and the key itself (shown once). */
  keyId: string;
  key: string;
}

/** Creates the demo organization, its items and one organization key. */
export async function seedDemo(store: Store): Promise<DemoSeed> {
  const organization = await store.createOrganization({
    name: 'Demo Outfitters',
    slug: 'demo-outfitters',
    features: ['inventory'],
  });
  for (const location of DEMO_LOCATIONS) await store.createLocation(organization.id, location);
  await store.writeItems(organization.id, demoItems());
  const { key, record } = await issueKey(store, {
    organizationId: organization.id,
    name: 'Demo key',
  });
  return { organization, keyId: record.id, key };
}
