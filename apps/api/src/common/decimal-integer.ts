/** Digits only: Number() would also read '0x10', '1e1' and ' 2'; anything else stays as sent and fails @IsInt. */
export const decimalInteger = ({ value }: { value: unknown }) => (typeof value === 'string' && /^[0-9]{1,16}$/.test(value) ? Number(value) : value);
