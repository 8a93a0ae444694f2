export * from './users.ts';
export * from './tokens.ts';
export * from './namespaces.ts';
export * from './projects.ts';
export * from './members.ts';
export * from './oauth.ts';
