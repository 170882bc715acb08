import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StockroomError } from './errors.js';
import {
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookDelivery,
  WebhookVerificationError,
} from './webhooks.js';

/**
 * verifyWebhook against deliveries signed here with node:crypto, an implementation independent
 * of the Web Crypto one under test, as the server signs them: HMAC-SHA256 keyed with the base64
 * part of `whsec_…`, over `<webhook-id>.<webhook-timestamp>.<raw body>`.
 */

const KEY = Buffer.from('0f1e2d3c4b5a69788796a5b4c3d2e1f00112233445566778', 'hex'); // 24 bytes
const SECRET = `whsec_${KEY.toString('base64')}`;
const OTHER_SECRET = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
const NOW = new Date('2026-11-24T21:00:00.000Z');
const NOW_SECONDS = Math.floor(NOW.getTime() / 1000);
const ID = '6743a1f2c3d4e5f6a7b8c9d0';

const DELIVERY: WebhookDelivery = {
  id: ID,
  webhookId: '6743a0e1c3d4e5f6a7b8c901',
  organizationId: '6740a1f2c3d4e5f6a7b8c9d0',
  createdAt: '2026-11-24T21:00:00.000Z',
  events: [
    {
      type: 'item.updated',
      occurredAt: '2026-11-24T20:59:59.120Z',
      item: {
        _id: '6740a1f2c3d4e5f6a7b8c9e2',
        organizationId: '6740a1f2c3d4e5f6a7b8c9d0',
        name: 'Tente légère 2P',
        description: null,
        sku: 'TENT-2P',
        barcode: '5901234123457',
        status: 'Active',
        quantity: 41,
        stock: [{ location: 'WH-1', quantity: 41 }],
        customFields: { capacity: 2 },
        createdAt: '2026-11-20T08:00:00.000Z',
        updatedAt: '2026-11-24T20:59:59.120Z',
      },
    },
    { type: 'item.deleted', occurredAt: '2026-11-24T20:59:59.500Z', item: { _id: ID } },
  ],
};
const BODY = JSON.stringify(DELIVERY);

function signature(
  body: string | Uint8Array,
  {
    id = ID,
    timestamp = NOW_SECONDS,
    key = KEY,
  }: { id?: string; timestamp?: number | string; key?: Buffer } = {},
): string {
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
  return `v1,${mac}`;
}

/** A delivery as the server sends it, with every part overridable. */
function request(
  overrides: Partial<VerifyWebhookOptions> & { signedBody?: string | Uint8Array } = {},
): VerifyWebhookOptions {
  const payload = overrides.payload ?? BODY;
  const signedBody =
    overrides.signedBody ??
    (typeof payload === 'string' || payload instanceof Uint8Array ? payload : BODY);
  return {
    payload,
    headers: overrides.headers ?? {
      'webhook-id': ID,
      'webhook-timestamp': String(NOW_SECONDS),
      'webhook-signature': signature(signedBody),
      'content-type': 'application/json',
    },
    secret: 'secret' in overrides ? overrides.secret : SECRET,
    now: overrides.now ?? NOW,
    ...(overrides.toleranceSeconds === undefined
      ? {}
      : { toleranceSeconds: overrides.toleranceSeconds }),
  };
}

/** The error verifyWebhook rejects with. */
async function failure(options: VerifyWebhookOptions): Promise<WebhookVerificationError> {
  const error = await verifyWebhook(options).then(
    () => {
      throw new Error('verifyWebhook accepted the delivery');
    },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return error as WebhookVerificationError;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('verifyWebhook accepts', () => {
  it('a delivery signed with the secret, and returns its parsed body', async () => {
    const delivery = await verifyWebhook(request());
    expect(delivery).toEqual(DELIVERY);
    const [updated, deleted] = delivery.events;
    expect(updated?.type === 'item.updated' && updated.item.name).toBe('Tente légère 2P');
    expect(deleted?.item).toEqual({ _id: ID });
  });

  it('the timestamp up to toleranceSeconds away, both ways (default 300 s)', async () => {
    for (const offset of [-300, -1, 0, 1, 300]) {
      const timestamp = NOW_SECONDS + offset;
      await expect(
        verifyWebhook(
          request({
            headers: {
              'webhook-id': ID,
              'webhook-timestamp': String(timestamp),
              'webhook-signature': signature(BODY, { timestamp }),
            },
          }),
        ),
      ).resolves.toEqual(DELIVERY);
    }
    const timestamp = NOW_SECONDS - 3600;
    const headers = {
      'webhook-id': ID,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature(BODY, { timestamp }),
    };
    await expect(verifyWebhook(request({ headers, toleranceSeconds: 3600 }))).resolves.toEqual(
      DELIVERY,
    );
  });

  it('against the machine’s clock when no `now` is given', async () => {
    const timestamp = Math.floor(Date.now() / 1000);
    const { now: _now, ...options } = request({
      headers: {
        'webhook-id': ID,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature(BODY, { timestamp }),
      },
    });
    await expect(verifyWebhook(options)).resolves.toEqual(DELIVERY);
  });

  it('several space-separated signatures when any one matches; other versions are ignored', async () => {
    const good = signature(BODY);
    const wrong = signature(BODY, { key: Buffer.alloc(24, 1) });
    const goodMac = good.slice(3);
    for (const header of [
      `${wrong} ${good}`,
      `${good} ${wrong}`,
      `v2,${goodMac} ${good}`,
      `v1,not-base64!! ${good}`,
      `v1a,${goodMac}   ${good}  `,
      `${wrong}, ${good}`, // a proxy that joined two headers with ", "
    ]) {
      const options = request({
        headers: {
          'webhook-id': ID,
          'webhook-timestamp': String(NOW_SECONDS),
          'webhook-signature': header,
        },
      });
      await expect(verifyWebhook(options), header).resolves.toEqual(DELIVERY);
    }
  });

  it('headers as a fetch Headers object', async () => {
    const headers = new Headers({
      'Webhook-Id': ID,
      'Webhook-Timestamp': String(NOW_SECONDS),
      'Webhook-Signature': signature(BODY),
    });
    await expect(verifyWebhook(request({ headers }))).resolves.toEqual(DELIVERY);
  });

  it('headers as a plain object, names in any case, values strings or lists', async () => {
    const headers = {
      'Webhook-ID': ID,
      'WEBHOOK-TIMESTAMP': [String(NOW_SECONDS)],
      'webhook-signature': [signature(BODY, { key: Buffer.alloc(24, 1) }), signature(BODY)],
      'x-forwarded-for': undefined,
    };
    await expect(verifyWebhook(request({ headers }))).resolves.toEqual(DELIVERY);
    // The same value twice is still one value.
    const repeated = { ...headers, 'Webhook-ID': [ID, ID] };
    await expect(verifyWebhook(request({ headers: repeated }))).resolves.toEqual(DELIVERY);
  });

  it('the body as bytes: Uint8Array, Buffer, a view into a larger buffer, ArrayBuffer', async () => {
    const bytes = new TextEncoder().encode(BODY);
    const larger = new Uint8Array(bytes.length + 20);
    larger.set(bytes, 10);
    const view = larger.subarray(10, 10 + bytes.length);
    const dataView = new DataView(larger.buffer, 10, bytes.length);
    for (const payload of [bytes, Buffer.from(BODY), view, dataView, bytes.buffer.slice(0)]) {
      await expect(verifyWebhook(request({ payload, signedBody: bytes }))).resolves.toEqual(
        DELIVERY,
      );
    }
    // The caller's bytes are left as they were.
    expect(new TextDecoder().decode(view)).toBe(BODY);
  });

  it('a secret with surrounding whitespace, or written without base64 padding', async () => {
    await expect(verifyWebhook(request({ secret: `  ${SECRET}\n` }))).resolves.toEqual(DELIVERY);
    const key32 = Buffer.alloc(32, 9); // 44 base64 characters, the last one "="
    const padded = `whsec_${key32.toString('base64')}`;
    expect(padded.endsWith('=')).toBe(true);
    const headers = {
      'webhook-id': ID,
      'webhook-timestamp': String(NOW_SECONDS),
      'webhook-signature': signature(BODY, { key: key32 }),
    };
    for (const secret of [padded, padded.replace(/=+$/, '')]) {
      await expect(verifyWebhook(request({ headers, secret }))).resolves.toEqual(DELIVERY);
    }
  });

  it('the example of the Standard Webhooks specification', async () => {
    // https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md
    const payload = '{"test": 2432232314}';
    const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
    const timestamp = 1614265330;
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const expected = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';
    expect(signature(payload, { id, timestamp, key: Buffer.from(secret.slice(6), 'base64') })).toBe(
      expected,
    );
    // Not a Stockroom delivery, so it verifies and then fails as a payload, not a signature.
    const error = await failure({
      payload,
      headers: {
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': expected,
      },
      secret,
      now: new Date(timestamp * 1000),
    });
    expect(error.code).toBe('INVALID_PAYLOAD');
    expect(error.message).toContain('not a Stockroom delivery');
  });
});

describe('verifyWebhook rejects', () => {
  it('a tampered body, saying to pass the raw body', async () => {
    const tampered = BODY.replace('"quantity":41', '"quantity":4100');
    expect(tampered).not.toBe(BODY);
    const error = await failure(request({ payload: tampered, signedBody: BODY }));
    expect(error.code).toBe('INVALID_SIGNATURE');
    expect(error.message).toMatch(/raw request body/);
  });

  it('JSON parsed and serialized again: the signature is over the bytes as sent', async () => {
    const sent =
      '{"id":"6743a1f2c3d4e5f6a7b8c9d0","name":"Tente l\\u00e9g\\u00e8re","quantity":1.50}';
    const reserialized = JSON.stringify(JSON.parse(sent));
    expect(reserialized).not.toBe(sent);
    const error = await failure(request({ payload: reserialized, signedBody: sent }));
    expect(error.code).toBe('INVALID_SIGNATURE');
  });

  it('a changed webhook-id or webhook-timestamp', async () => {
    const good = signature(BODY);
    for (const headers of [
      {
        'webhook-id': `${ID.slice(0, -1)}1`,
        'webhook-timestamp': String(NOW_SECONDS),
        'webhook-signature': good,
      },
      { 'webhook-id': ID, 'webhook-timestamp': String(NOW_SECONDS + 1), 'webhook-signature': good },
      // The same number written differently is different signed content.
      { 'webhook-id': ID, 'webhook-timestamp': `0${NOW_SECONDS}`, 'webhook-signature': good },
    ]) {
      expect((await failure(request({ headers }))).code).toBe('INVALID_SIGNATURE');
    }
  });

  it('a delivery signed with another secret, saying each webhook has its own', async () => {
    const error = await failure(request({ secret: OTHER_SECRET }));
    expect(error.code).toBe('INVALID_SIGNATURE');
    expect(error.message).toMatch(/secret is this webhook's/);
  });

  it('a signature header with no v1 signature, or only malformed ones', async () => {
    const mac = signature(BODY).slice(3);
    for (const header of [`v2,${mac}`, 'v1,', 'v1,%%%', mac, `v1,${mac.slice(0, -4)}`]) {
      const options = request({
        headers: {
          'webhook-id': ID,
          'webhook-timestamp': String(NOW_SECONDS),
          'webhook-signature': header,
        },
      });
      expect((await failure(options)).code, header).toBe('INVALID_SIGNATURE');
    }
  });

  it('a timestamp more than toleranceSeconds away, either way, naming the direction', async () => {
    for (const [offset, words] of [
      [-301, /ago/],
      [-86_400, /24 h ago/],
      [301, /in the future/],
    ] as const) {
      const timestamp = NOW_SECONDS + offset;
      const headers = {
        'webhook-id': ID,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature(BODY, { timestamp }),
      };
      const error = await failure(request({ headers }));
      expect(error.code, String(offset)).toBe('TIMESTAMP_OUT_OF_RANGE');
      expect(error.message).toMatch(words);
      expect(error.message).toMatch(/clock/);
    }
    const timestamp = NOW_SECONDS - 11;
    const headers = {
      'webhook-id': ID,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature(BODY, { timestamp }),
    };
    expect((await failure(request({ headers, toleranceSeconds: 10 }))).code).toBe(
      'TIMESTAMP_OUT_OF_RANGE',
    );
  });

  it('a forged old delivery as a bad signature: TIMESTAMP_OUT_OF_RANGE means authentic', async () => {
    const timestamp = NOW_SECONDS - 3600;
    const headers = {
      'webhook-id': ID,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature(BODY, { timestamp, key: Buffer.alloc(24, 1) }),
    };
    expect((await failure(request({ headers }))).code).toBe('INVALID_SIGNATURE');
  });

  it('missing, empty or malformed webhook headers, naming the header', async () => {
    const complete = {
      'webhook-id': ID,
      'webhook-timestamp': String(NOW_SECONDS),
      'webhook-signature': signature(BODY),
    };
    for (const name of Object.keys(complete) as Array<keyof typeof complete>) {
      const { [name]: _left, ...without } = complete;
      for (const headers of [without, { ...without, [name]: '' }, { ...without, [name]: [] }]) {
        const error = await failure(request({ headers }));
        expect(error.code, name).toBe('MISSING_HEADERS');
        expect(error.message).toContain(name);
      }
      const fetchHeaders = new Headers(without);
      expect((await failure(request({ headers: fetchHeaders }))).code).toBe('MISSING_HEADERS');
    }
    expect((await failure(request({ headers: {} }))).code).toBe('MISSING_HEADERS');
    for (const timestamp of ['soon', '1.5', '-1', '1e9', '2026-11-24T21:00:00Z', '9'.repeat(20)]) {
      const error = await failure(
        request({ headers: { ...complete, 'webhook-timestamp': timestamp } }),
      );
      expect(error.code, timestamp).toBe('MISSING_HEADERS');
      expect(error.message).toContain('webhook-timestamp');
    }
    const twice = { ...complete, 'webhook-id': [ID, `${ID.slice(0, -1)}1`] };
    const error = await failure(request({ headers: twice }));
    expect(error.code).toBe('MISSING_HEADERS');
    expect(error.message).toMatch(/2 times/);
  });

  it('a secret that is not whsec_ followed by base64, before looking at the request', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [undefined, /no secret \(got undefined\)/],
      ['', /no secret/],
      ['   ', /no secret/],
      [42, /no secret \(got number\)/],
      [KEY.toString('base64'), /starts with "whsec_"/], // the key without its prefix
      ['sr_org_0123456789abcdefghijABCDEFGHIJklmnop', /API key, not a webhook secret/],
      ['whsec_', /not base64/],
      ['whsec_not*base64', /not base64/],
      [SECRET.slice(0, -1), /23 bytes.*cut short/], // one character lost when copied
      [SECRET.slice(0, -4), /21 bytes.*cut short/],
      [SECRET.slice(0, -2), /22 bytes.*cut short/],
      [SECRET.slice(0, -3), /not base64/],
    ];
    for (const [secret, message] of cases) {
      // Headers missing too: the secret is what gets reported, as it fails every request.
      const error = await failure({ ...request(), secret: secret as string, headers: {} });
      expect(error.code, String(secret)).toBe('INVALID_SECRET');
      expect(error.message).toMatch(message);
      expect(error.message).not.toContain(KEY.toString('base64'));
    }
  });

  it('a parsed body or no body, saying how to get the raw one', async () => {
    for (const payload of [DELIVERY, {}, undefined, null, 42]) {
      const options = { ...request(), payload: payload as unknown as string };
      const error = await failure(options);
      expect(error.code).toBe('INVALID_PAYLOAD');
      expect(error.message).toMatch(/raw request body/);
    }
    const parsed = await failure({ ...request(), payload: DELIVERY as unknown as string });
    expect(parsed.message).toContain("express.raw({ type: 'application/json' })");
  });

  it('a correctly signed body that is not UTF-8, not JSON, or not a delivery', async () => {
    const notUtf8 = new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
    for (const payload of [
      notUtf8,
      'not json',
      '{"id":',
      '[]',
      'null',
      '{"id":"x"}',
      '{"events":[]}',
    ]) {
      const error = await failure(request({ payload }));
      expect(error.code, String(payload)).toBe('INVALID_PAYLOAD');
      expect(error.message).toMatch(/correctly signed/);
    }
  });
});

describe('WebhookVerificationError', () => {
  it('is an Error, not a StockroomError, with a code, a name and a JSON form', async () => {
    const error = await failure(request({ secret: OTHER_SECRET }));
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(StockroomError);
    expect(error.name).toBe('WebhookVerificationError');
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'WebhookVerificationError',
      code: 'INVALID_SIGNATURE',
      message: error.message,
    });
  });

  it('keeps the parse error as its cause', async () => {
    const error = await failure(request({ payload: 'not json' }));
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });
});

describe('programming errors are TypeErrors, not verification failures', () => {
  it.each([
    ['a negative tolerance', { toleranceSeconds: -1 }],
    ['a NaN tolerance', { toleranceSeconds: Number.NaN }],
    ['an invalid date', { now: new Date('not a date') }],
  ])('%s', async (_name, overrides) => {
    await expect(verifyWebhook({ ...request(), ...overrides })).rejects.toThrow(TypeError);
  });

  it('no headers object', async () => {
    await expect(
      verifyWebhook({ ...request(), headers: undefined as unknown as Headers }),
    ).rejects.toThrow(TypeError);
  });

  it('a runtime without Web Crypto gets an Error that says what is needed', async () => {
    vi.stubGlobal('crypto', {});
    const error = await verifyWebhook(request()).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(WebhookVerificationError);
    expect((error as Error).message).toMatch(/crypto\.subtle.*secure context/);
  });
});

describe('any delivery node:crypto signs verifies, and no changed one does', () => {
  it('for random ids, timestamps, secrets and bodies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .string({ minLength: 1, maxLength: 40 })
          .filter((s) => s.trim() === s && !/[\s,]/.test(s)),
        fc.integer({ min: -300, max: 300 }),
        fc.uint8Array({ minLength: 24, maxLength: 64 }),
        fc.uint8Array({ minLength: 0, maxLength: 300 }),
        fc.nat(),
        async (id, offset, keyBytes, noise, flip) => {
          const key = Buffer.from(keyBytes);
          const body = new TextEncoder().encode(
            JSON.stringify({ ...DELIVERY, id, noise: Buffer.from(noise).toString('latin1') }),
          );
          const timestamp = NOW_SECONDS + offset;
          const headers = {
            'webhook-id': id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signature(body, { id, timestamp, key }),
          };
          const secret = `whsec_${key.toString('base64')}`;
          const delivery = await verifyWebhook({ payload: body, headers, secret, now: NOW });
          expect(delivery.id).toBe(id);
          const changed = body.slice();
          const at = flip % changed.length;
          changed[at] = (changed[at] ?? 0) ^ (1 << (flip % 8));
          const error = await verifyWebhook({ payload: changed, headers, secret, now: NOW }).catch(
            (reason: unknown) => reason,
          );
          expect((error as WebhookVerificationError).code).toBe('INVALID_SIGNATURE');
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('interoperability with the standardwebhooks package', () => {
  it('verifies what the reference implementation signs', async () => {
    const reference = new StandardWebhook(SECRET);
    const sentAt = new Date();
    const timestamp = Math.floor(sentAt.getTime() / 1000);
    const headers = {
      'webhook-id': ID,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': reference.sign(ID, sentAt, BODY),
    };
    expect(headers['webhook-signature']).toBe(signature(BODY, { timestamp }));
    await expect(verifyWebhook({ payload: BODY, headers, secret: SECRET })).resolves.toEqual(
      DELIVERY,
    );
    const bytes = Buffer.from(BODY);
    await expect(verifyWebhook({ payload: bytes, headers, secret: SECRET })).resolves.toEqual(
      DELIVERY,
    );
  });

  it('signs (as the server does) what the reference implementation verifies, and agrees on rejections', async () => {
    const reference = new StandardWebhook(SECRET);
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'webhook-id': ID,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': `${signature(BODY, { timestamp, key: Buffer.alloc(24, 1) })} ${signature(BODY, { timestamp })}`,
    };
    expect(reference.verify(BODY, headers)).toEqual(DELIVERY);
    await expect(verifyWebhook({ payload: BODY, headers, secret: SECRET })).resolves.toEqual(
      DELIVERY,
    );
    const tampered = BODY.replace('TENT-2P', 'TENT-3P');
    expect(() => reference.verify(tampered, headers)).toThrow();
    expect((await failure({ payload: tampered, headers, secret: SECRET })).code).toBe(
      'INVALID_SIGNATURE',
    );
    const other = new StandardWebhook(OTHER_SECRET);
    expect(() => other.verify(BODY, headers)).toThrow();
    expect((await failure({ payload: BODY, headers, secret: OTHER_SECRET })).code).toBe(
      'INVALID_SIGNATURE',
    );
  });
});
