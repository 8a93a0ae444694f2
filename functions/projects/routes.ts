import { Hono } from 'hono';
import type { AppEnv } from '../env.ts';

export const projectRoutes = new Hono<AppEnv>();
