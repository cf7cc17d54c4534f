import type { FastifyInstance } from 'fastify';
import { createAccount } from '../../../core/accounts/manage-accounts.ts';
import { createKey, listKeys, revokeKey } from '../../../core/keys/manage-keys.ts';
import type { AppServices } from '../../services.ts';
import { actorOf } from '../operator-header.ts';
import { presentAccount, presentKey } from '../present.ts';
import {
  AccountParams,
  AdminAccount,
  AdminAccountCreated,
  AdminAccountList,
  AdminKey,
  AdminKeyCreated,
  AdminKeyList,
  adminErrors,
  CreateAccountBody,
  CreateKeyBody,
  OperatorHeaders,
  RevokeKeyBody,
  UpdateAccountBody,
} from '../schemas.ts';
import { strictJsonBody } from '../strict-body.ts';

/** Accounts and their API keys. A key is shown once, at creation; it never goes in a URL. */
export function accountRoutes(app: FastifyInstance, s: AppServices): void {
  const deps = { accounts: s.store.accounts, keys: s.store.keys };

  app.get(
    '/accounts',
    {
      schema: {
        operationId: 'listAccounts',
        summary: 'List accounts',
        tags: ['accounts'],
        response: { 200: AdminAccountList, ...adminErrors() },
      },
    },
    async () => {
      const all = await s.store.accounts.list();
      return {
        data: all.map(presentAccount).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
      };
    },
  );

  app.post<{ Body: CreateAccountBody; Headers: OperatorHeaders }>(
    '/accounts',
    {
      schema: {
        operationId: 'createAccount',
        summary: 'Create an account',
        description:
          'Plans: `free`, `pro`, `enterprise`, `custom` (per-account limits). A taken name is 409.',
        tags: ['accounts'],
        headers: OperatorHeaders,
        body: CreateAccountBody,
        response: { 201: AdminAccountCreated, ...adminErrors({ 409: 'The name is taken (`conflict`).' }) },
      },
      preValidation: strictJsonBody(),
    },
    async (request, reply) => {
      const a = await createAccount(deps, request.body);
      return reply.code(201).send(presentAccount(a));
    },
  );

  app.patch<{ Params: AccountParams; Body: UpdateAccountBody; Headers: OperatorHeaders }>(
    '/accounts/:name',
    {
      schema: {
        operationId: 'updateAccount',
        summary: "Change an account's plan or limits",
        description:
          'Takes effect on the next request of any of its keys. At least one of `plan`, `rateLimitA`, ' +
          '`rateLimitB`.',
        tags: ['accounts'],
        params: AccountParams,
        headers: OperatorHeaders,
        body: UpdateAccountBody,
        response: { 200: AdminAccount, ...adminErrors({ 404: 'No such account (`not_found`).' }) },
      },
      preValidation: strictJsonBody(),
    },
    async (request) => {
      const { account } = await s.operator.updateAccount(request.params.name, request.body, actorOf(request));
      return presentAccount(account);
    },
  );

  app.get<{ Params: AccountParams }>(
    '/accounts/:name/keys',
    {
      schema: {
        operationId: 'listKeys',
        summary: "List an account's keys",
        description: 'Id, display prefix, label, created, revoked. Never the key itself.',
        tags: ['keys'],
        params: AccountParams,
        response: { 200: AdminKeyList, ...adminErrors({ 404: 'No such account (`not_found`).' }) },
      },
    },
    async (request) => ({ data: (await listKeys(deps, request.params.name)).map(presentKey) }),
  );

  app.post<{ Params: AccountParams; Body: CreateKeyBody; Headers: OperatorHeaders }>(
    '/accounts/:name/keys',
    {
      schema: {
        operationId: 'createKey',
        summary: 'Create an API key',
        description: 'The response carries the key. It is shown this once: only its hash is stored.',
        tags: ['keys'],
        params: AccountParams,
        headers: OperatorHeaders,
        body: CreateKeyBody,
        response: { 201: AdminKeyCreated, ...adminErrors({ 404: 'No such account (`not_found`).' }) },
      },
      preValidation: strictJsonBody({ emptyBody: 'object' }),
    },
    async (request, reply) => {
      const { name } = request.params;
      const { key, info } = await createKey(deps, name, request.body.name ?? null);
      reply.header('cache-control', 'no-store');
      return reply.code(201).send({ key, account: name, ...presentKey(info) });
    },
  );

  app.post<{ Body: RevokeKeyBody; Headers: OperatorHeaders }>(
    '/keys/revoke',
    {
      schema: {
        operationId: 'revokeKey',
        summary: 'Revoke an API key',
        description:
          'By key id, display prefix (refused when it names two live keys) or the full key, in the body. ' +
          'The key answers 401 from its next request.',
        tags: ['keys'],
        headers: OperatorHeaders,
        body: RevokeKeyBody,
        response: {
          200: AdminKey,
          ...adminErrors({
            404: 'No key matches (`not_found`).',
            409: 'Already revoked, or the prefix names several keys (`conflict`).',
          }),
        },
      },
      preValidation: strictJsonBody(),
    },
    async (request) => {
      const k = await revokeKey(deps, request.body.key);
      // This instance stops accepting the key at once; others within the change-detection delay.
      await s.freshness.refresh();
      return presentKey(k);
    },
  );
}
