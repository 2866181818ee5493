/**
 * The colours a category can be given here: Sure's palette, darkened where needed so that white text and the
 * swatch's edge stay readable (each has at least 3:1 contrast against the page's white).
 */
export const CATEGORY_COLORS: Array<{ value: string; name: string }> = [
  { value: '#c2410c', name: 'Orange' },
  { value: '#b45309', name: 'Amber' },
  { value: '#4d7c0f', name: 'Olive' },
  { value: '#15803d', name: 'Green' },
  { value: '#0f766e', name: 'Teal' },
  { value: '#0369a1', name: 'Sky' },
  { value: '#1d4ed8', name: 'Blue' },
  { value: '#4f46e5', name: 'Indigo' },
  { value: '#7e22ce', name: 'Purple' },
  { value: '#be185d', name: 'Pink' },
  { value: '#b91c1c', name: 'Red' },
  { value: '#4b5563', name: 'Grey' },
];

/** A colour's name in the palette, else its code (a colour an import or the API set). */
export const colorName = (value: string) => CATEGORY_COLORS.find((c) => c.value.toLowerCase() === value.toLowerCase())?.name ?? value;
