import { z } from 'zod';

/** SPEC §3 user profile: the whole body of GET /api/user/profile is stored by the client. */
export const userProfile = z.object({
  id: z.number().int(),
  name: z.string(),
  surname: z.string(),
  nickname: z.string(),
  email: z.string(),
  phone: z.string(),
  about_me: z.string(),
  hourly_rate: z.number(),
  avatar_path: z.string().nullable(),
  contact_info: z.object({ phone: z.string() }),
  is_email_verified: z.boolean(),
  is_phone_verified: z.boolean(),
  role: z.enum(['user', 'admin']),
  created_at: z.number().int(),
});
export type UserProfile = z.infer<typeof userProfile>;

export const isAuthAnswer = z.object({ status: z.literal('OK'), authenticated: z.boolean() });
export type IsAuthAnswer = z.infer<typeof isAuthAnswer>;
