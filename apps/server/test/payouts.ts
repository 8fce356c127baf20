/** The contact details every payout form sends (SPEC §7 payout requests), for tests of payouts and withdrawals. */
export const payoutContact = {
  first_name: 'Ines',
  last_name: 'Duarte',
  email: 'ines@example.com',
  phone: '+351912345678',
  address: 'Rua Augusta 1',
  city: 'Lisboa',
  post_code: '1100-048',
  country: 620,
  currency: 'EUR',
};
