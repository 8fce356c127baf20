import { z } from 'zod';
import { okEnvelope } from './envelope';

export const healthAnswer = okEnvelope(z.object({ uptime: z.number() }));
export const readyAnswer = okEnvelope(z.object({ database: z.literal('up') }));
