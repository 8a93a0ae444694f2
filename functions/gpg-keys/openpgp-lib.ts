// The part of openpgp.js this service uses, named so the bundler keeps only what it reaches (about 20 KiB less than
// the whole namespace a bare `import('openpgp')` keeps). Imported by openpgp.ts on first use only.
export { createMessage, readKey, readSignature, verify } from 'openpgp';
