/** An amount as the API formats it, in red when below zero: the one way a negative amount is marked in the app. */
export function Money({ value, className = '' }: { value: { cents: number; formatted: string }; className?: string }) {
  return <span className={`money${value.cents < 0 ? ' negative' : ''}${className ? ` ${className}` : ''}`}>{value.formatted}</span>;
}
