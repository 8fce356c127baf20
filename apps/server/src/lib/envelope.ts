/** Builds the success envelope of SPEC §7. */
export function ok<T>(payload: T, message?: string): { status: 'OK'; payload: T; message?: string } {
  return message === undefined ? { status: 'OK', payload } : { status: 'OK', payload, message };
}
