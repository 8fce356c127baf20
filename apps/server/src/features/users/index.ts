export { usersAdminRoutes } from './users.admin-routes';
export { checkEmailVerification, EMAIL_LINK_MINUTES, sendVerificationMail } from './users.mail';
export {
  createStaffAccount,
  findUserByEmail,
  findUserById,
  findUserByIdOrNickname,
  generateNickname,
  isEmailTaken,
  normalizePhone,
  passwordProblem,
  type UserRow,
} from './users.queries';
export { userRoutes } from './users.routes';
