/**
 * Writes a tiny MaxMind DB (format 2.0, IPv4 tree, 24-bit records) mapping one network to a City
 * record, so the GeoIP code is tested against the real reader without a downloaded database.
 * Spec: https://maxmind.github.io/MaxMind-DB/
 */
type Value = string | number | bigint | Value[] | { [key: string]: Value };

function control(type: number, size: number): Buffer {
  if (size >= 29) throw new Error('mmdb-writer: values this long are not needed here');
  return type <= 7 ? Buffer.from([(type << 5) | size]) : Buffer.from([size, type - 7]);
}

function unsigned(type: number, value: number | bigint): Buffer {
  let hex = BigInt(value).toString(16);
  if (hex === '0') hex = '';
  if (hex.length % 2) hex = `0${hex}`;
  const bytes = Buffer.from(hex, 'hex');
  return Buffer.concat([control(type, bytes.length), bytes]);
}

function encode(value: Value): Buffer {
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([control(2, bytes.length), bytes]);
  }
  if (typeof value === 'bigint') return unsigned(9, value);
  if (typeof value === 'number') return unsigned(value <= 0xffff ? 5 : 6, value);
  if (Array.isArray(value)) return Buffer.concat([control(11, value.length), ...value.map(encode)]);
  const entries = Object.entries(value);
  return Buffer.concat([control(7, entries.length), ...entries.flatMap(([k, v]) => [encode(k), encode(v)])]);
}

function record24(n: number): Buffer {
  return Buffer.from([(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]);
}

/** `cidr` like '127.0.0.0/16'; `city`/`country` as the English names. */
export function cityDatabase(cidr: string, city: string, country: string, isoCode: string): Buffer {
  const [address, bitsText] = cidr.split('/');
  const prefix = Number(bitsText);
  const ip = address!.split('.').reduce((n, part) => (n << 8) + Number(part), 0) >>> 0;
  const bits = Array.from({ length: prefix }, (_, i) => (ip >>> (31 - i)) & 1);
  const nodeCount = prefix;
  const dataPointer = nodeCount + 16; // the data section's first byte
  const nodes = bits.map((bit, i) => {
    const next = i === prefix - 1 ? dataPointer : i + 1;
    const [left, right] = bit === 0 ? [next, nodeCount] : [nodeCount, next];
    return Buffer.concat([record24(left), record24(right)]);
  });
  const data = encode({ city: { names: { en: city } }, country: { iso_code: isoCode, names: { en: country } } });
  const metadata = encode({
    binary_format_major_version: 2,
    binary_format_minor_version: 0,
    build_epoch: 1_795_000_000n,
    database_type: 'GeoLite2-City',
    description: { en: 'Atelier test database' },
    ip_version: 4,
    languages: ['en'],
    node_count: nodeCount,
    record_size: 24,
  });
  return Buffer.concat([...nodes, Buffer.alloc(16), data, Buffer.from('ABCDEF4D61784D696E642E636F6D', 'hex'), metadata]);
}
