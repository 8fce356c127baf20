/** Passwords seen most often in breaches; a new password on this list is refused. */
const COMMON = `123456 123456789 12345678 password qwerty123 qwerty1 111111 12345 secret 123123 1234567890
1234567 000000 qwerty abc123 password1 iloveyou 11111111 dragon monkey 123123123 123321 qwertyuiop 654321
666666 7777777 987654321 1q2w3e4r 1qaz2wsx zaq12wsx sunshine princess football baseball welcome welcome1
letmein admin admin123 administrator login master hello hello123 freedom whatever trustno1 passw0rd
password123 password12 p@ssw0rd p@ssword qwe123 asdfghjkl asdf1234 superman batman michael shadow
mustang jennifer jordan23 harley ranger buster soccer hockey killer george charlie andrew michelle
loveme starwars computer internet changeme default guest test1234 testtest 88888888 00000000 12341234
11223344 aa123456 abcd1234 abcdef 1234qwer q1w2e3r4 azerty 123qwe 987654 121212 112233 159753
google linkedin facebook iloveyou1 lovely flower 555555 999999 atelier atelier123 marketplace`;

const set = new Set(COMMON.split(/\s+/).filter(Boolean));

export function isCommonPassword(password: string): boolean {
  return set.has(password.toLowerCase());
}
