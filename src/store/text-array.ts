/**
 * A `text[]` parameter written as the array's text form by one `JSON.stringify`: the driver (pg) would otherwise
 * escape each element with two regular expressions and build the literal by concatenation, for every wamid and id of
 * every status batch. JSON writes a string without any backslash exactly when it holds no `"`, `\`, control character
 * or lone surrogate, and such a string is written the same way in an array literal (double-quoted, nothing escaped),
 * so `{` + the JSON array's inside + `}` reads back as the same elements. Anything else goes to the driver as an array.
 */
export function textArray(values: readonly string[]): string | readonly string[] {
  const json = JSON.stringify(values);
  return json.includes('\\') ? values : `{${json.slice(1, -1)}}`;
}
