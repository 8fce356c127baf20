import { VerifyEmailLink } from '../../features/auth';
import { authCardPage } from '../layout/auth-card-page';

export const Component = authCardPage('auth.verify_title', VerifyEmailLink);
