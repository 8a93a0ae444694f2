// Server-rendered pages: sign-in/out, OAuth applications, authorized applications, and consent (/oauth/authorize).
import { Hono } from 'hono';
import type { AppEnv } from '../env.ts';

export const webRoutes = new Hono<AppEnv>();
