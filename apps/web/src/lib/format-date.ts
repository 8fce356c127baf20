const pad = (n: number) => String(n).padStart(2, '0');

/** SPEC §9 date display in the visitor's time zone: dd.mm.yyyy HH:mm (orders), with seconds for offers. */
export function formatDateTime(epochSeconds: number, withSeconds = false): string {
  const d = new Date(epochSeconds * 1000);
  const date = `${pad(d.getDate())}.${pad(d.getMonth() + 1)}.${d.getFullYear()}`;
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}${withSeconds ? `:${pad(d.getSeconds())}` : ''}`;
  return `${date} ${time}`;
}
