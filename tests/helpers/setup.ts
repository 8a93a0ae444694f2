// Before each test file: the worker's shared database and a fresh app over it (tests/helpers/app.ts). Nothing is closed
// after a file: the next file of the worker uses the same database.
import { beforeAll } from 'vitest';
import { startTestApp } from './app.ts';

beforeAll(() => startTestApp());
