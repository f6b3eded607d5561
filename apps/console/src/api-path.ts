// Every path the console sends to the API is made here, so that no value can change which endpoint is
// called: a value from a link (`#/discrepancies/..%2F..%2Fv1%2Fapi-keys`) is decoded by the router, and put
// into a path as it is it would walk to another endpoint with the user's key.

declare const apiPathBrand: unique symbol;

/** A path made by `apiPath`: the API client takes nothing else. */
export type ApiPath = string & { readonly [apiPathBrand]: true };

/** One value as one path segment. `.` and `..` stay dot segments however they are encoded, so they are refused. */
function segment(value: string): string {
  if (value === '' || value === '.' || value === '..')
    throw new RangeError(`${JSON.stringify(value)} cannot be a segment of an API path`);
  return encodeURIComponent(value);
}

/** apiPath`/v1/discrepancies/${id}`: each value encoded as one segment (`/`, `?`, `#`, `%` included). */
export function apiPath(strings: TemplateStringsArray, ...values: string[]): ApiPath {
  let path = strings[0];
  for (const [index, value] of values.entries()) path += segment(value) + strings[index + 1];
  return path as ApiPath;
}
