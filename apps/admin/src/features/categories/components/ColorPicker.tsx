import { CATEGORY_COLORS, colorName } from './colors';

/**
 * The palette as a group of radio buttons (arrow keys move between them), each a swatch named for screen readers. A
 * colour from outside the palette (set by an import or the API) is offered too, so that saving keeps it.
 */
export function ColorPicker({ name, value, onChange }: { name: string; value: string; onChange: (color: string) => void }) {
  const known = CATEGORY_COLORS.some((c) => c.value.toLowerCase() === value.toLowerCase());
  const options = known ? CATEGORY_COLORS : [{ value, name: `${colorName(value)} (current)` }, ...CATEGORY_COLORS];
  return (
    <fieldset className="swatches">
      <legend>Colour</legend>
      {options.map((color) => (
        <label key={color.value} className="swatch" title={color.name}>
          <input type="radio" name={name} value={color.value} checked={color.value.toLowerCase() === value.toLowerCase()} onChange={() => onChange(color.value)} />
          <span className="swatch-colour" style={{ background: color.value }} aria-hidden="true" />
          <span className="visually-hidden">{color.name}</span>
        </label>
      ))}
    </fieldset>
  );
}

/** A category's colour as a dot before its name. */
export const ColorDot = ({ color }: { color: string }) => <span className="color-dot" style={{ background: color }} aria-hidden="true" />;
