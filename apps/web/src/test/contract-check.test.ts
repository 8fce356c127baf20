import { afterEach, describe, expect, it, vi } from 'vitest';
import { contractFor, contractProblem, takeContractProblems } from './contract-check';
import { fakeApi, okAnswer } from './fake-api';
import { aProfile } from './fixtures';
import { jsonAnswer } from './render';

afterEach(() => vi.unstubAllGlobals());

describe('fake API answers are held to the OpenAPI document', () => {
  it('finds the contract of a path with parameters, a fixed path before a pattern', () => {
    expect(contractFor('GET', '/api/products/7/reviews')?.key).toBe('GET /api/products/{id}/reviews');
    expect(contractFor('GET', '/api/products/catalog')?.key).toBe('GET /api/products/catalog');
    expect(contractFor('DELETE', '/api/cart/items/1')?.key).toBe('DELETE /api/cart/items/{id}');
    expect(contractFor('POST', '/api/products/catalog')).toBeUndefined();
  });

  it('fails the test of a drifted fixture, naming the route and the zod issue', async () => {
    fakeApi({ 'GET /api/user/profile': () => okAnswer({ ...aProfile(), role: 'owner', balance: undefined }) });
    const answer = await fetch('/api/user/profile');
    // The page still gets the answer; the test fails after it runs (setup.ts).
    expect(answer.status).toBe(200);
    const [problem, ...more] = takeContractProblems();
    expect(more).toEqual([]);
    expect(problem).toContain('The fake answer to GET /api/user/profile breaks the contract of GET /api/user/profile');
    expect(problem).toContain('must be equal to one of the allowed values: ["user","admin"]\n  → at payload.role');
    expect(problem).toContain("must have required property 'balance'\n  → at payload");
  });

  it('names a field the contract lacks, which the server would strip', async () => {
    fakeApi({ 'GET /api/user/profile': () => okAnswer({ ...aProfile(), balance: { ...aProfile().balance, bonus: 5 } }) });
    await fetch('/api/user/profile');
    expect(takeContractProblems()).toEqual([
      'The fake answer to GET /api/user/profile has fields the contract of GET /api/user/profile lacks (the server would strip them): payload.balance.bonus',
    ]);
  });

  it('fails an answer for a route the document lacks', async () => {
    fakeApi({ 'GET /api/nowhere/7': () => okAnswer([]) });
    await fetch('/api/nowhere/7');
    expect(takeContractProblems()).toEqual([
      'No route GET /api/nowhere/7 in the OpenAPI document (packages/shared/openapi.json); run `npm run api:generate` after adding it.',
    ]);
  });

  it('leaves errors and answers that are not JSON alone, and passes a fixture that keeps to the contract', async () => {
    fakeApi({
      'GET /api/user/profile': () => okAnswer(aProfile()),
      'POST /api/cart/purchase': () => jsonAnswer(422, { status: 'ERROR', message: 'Your cart is empty.' }),
      'POST /api/purchase/generate-image': () => new Response(new Uint8Array([80, 75]), { headers: { 'content-type': 'application/zip' } }),
    });
    await fetch('/api/user/profile');
    await fetch('/api/cart/purchase', { method: 'POST' });
    await fetch('/api/purchase/generate-image', { method: 'POST' });
    expect(takeContractProblems()).toEqual([]);
  });

  it('knows a 2xx answer only by its status', () => {
    expect(contractProblem('GET', '/api/user/profile', 404, { status: 'ERROR', message: 'Not found.' })).toBeUndefined();
    expect(contractProblem('GET', '/api/user/profile', 200, { status: 'OK', payload: aProfile() })).toBeUndefined();
  });
});
