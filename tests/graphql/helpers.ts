// GraphQL over the in-process app: POST /api/graphql with a query and variables (as clients send it).
import { request, type TestResponse } from '../helpers/app.ts';

export interface GqlOptions {
  token?: string;
  variables?: Record<string, unknown>;
  headers?: Record<string, string>;
}

export function gql<T = any>(query: string, options: GqlOptions = {}): Promise<TestResponse<T>> {
  return request<T>('POST', '/api/graphql', { token: options.token, body: { query, variables: options.variables ?? {} }, headers: options.headers });
}
