import { afterAll, beforeAll } from 'vitest';
import { startTestApp, stopTestApp } from './app.ts';

beforeAll(() => startTestApp());
afterAll(stopTestApp);
