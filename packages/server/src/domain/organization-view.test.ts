import { describe, expect, it } from 'vitest';
import { memberView, organizationView } from './organization-view.js';

describe('organization views', () => {
  it('shows an organization with its creation time in ISO form', () => {
    expect(
      organizationView({
        id: '6740a1f2c3d4e5f6a7b8c9d1',
        name: 'Acme',
        slug: 'acme',
        features: ['inventory'],
        createdAt: Date.UTC(2026, 10, 28),
      }),
    ).toEqual({
      id: '6740a1f2c3d4e5f6a7b8c9d1',
      name: 'Acme',
      slug: 'acme',
      features: ['inventory'],
      createdAt: '2026-11-28T00:00:00.000Z',
    });
  });

  it('shows a member as who they are, in the order id, email, name', () => {
    const view = memberView({
      id: '6740a1f2c3d4e5f6a7b8c9d2',
      email: 'ana@example.com',
      name: null,
      createdAt: 0,
    });
    expect(JSON.stringify(view)).toBe(
      '{"id":"6740a1f2c3d4e5f6a7b8c9d2","email":"ana@example.com","name":null}',
    );
  });
});
