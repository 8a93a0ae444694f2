import { Hono } from 'hono';
import type { AppEnv } from '../env.ts';

export const memberRoutes = new Hono<AppEnv>();
