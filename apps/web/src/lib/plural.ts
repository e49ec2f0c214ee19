/** "1 turn", "2 turns": counts in sentences read right in the singular too. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
