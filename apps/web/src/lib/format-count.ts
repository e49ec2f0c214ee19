// A fixed locale: the server and the browser must print the same digits or hydration fails.
const countFormat = new Intl.NumberFormat("en-US");

export function formatCount(value: number): string {
  return countFormat.format(value);
}
