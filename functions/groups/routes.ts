import { Hono } from 'hono';
import type { AppEnv } from '../env.ts';

export const groupRoutes = new Hono<AppEnv>();
