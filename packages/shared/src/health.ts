import { z } from 'zod';

export const healthAnswer = z.object({ status: z.literal('OK'), uptime: z.number() });
export const readyAnswer = z.object({ status: z.literal('OK'), database: z.literal('up') });
