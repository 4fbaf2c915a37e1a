/**
 * A stored row as the API shows it: the fields listed, copied as they are and in that order (the
 * order of the JSON answer), and no other, so a column added to a table stays unseen until a view
 * lists it.
 */
export function viewOf<Row extends object, Field extends keyof Row>(
  row: Row,
  fields: readonly Field[],
): Pick<Row, Field> {
  const view = {} as Pick<Row, Field>;
  for (const field of fields) view[field] = row[field];
  return view;
}
