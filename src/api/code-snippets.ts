// The request a screen shows as code to copy, besides cURL (./paths.ts): Python (standard library
// only) and JavaScript (fetch, Node 18+ or a browser). Like the cURL text, the address and the token
// stay variables, API_BASE_URL and API_TOKEN, so a snippet never displays a secret; the console
// serves /v1 as the service does, so the same snippet runs against the service with its token, or
// against this console with a personal API token (docs/user-guide.md, "API tokens").

/** Python 3: urllib, json and os, nothing to install. */
export function toPython(method: 'GET' | 'POST', path: string, body?: unknown): string {
  const headers = ['"Authorization": "Bearer " + os.environ["API_TOKEN"]'];
  if (body !== undefined) headers.push('"Content-Type": "application/json"');
  return [
    'import json, os, urllib.request',
    '',
    'request = urllib.request.Request(',
    // A JSON string literal is a valid Python string literal: the path stays exactly as given.
    `    os.environ["API_BASE_URL"] + ${JSON.stringify(path)},`,
    `    method="${method}",`,
    `    headers={${headers.join(', ')}},`,
    ...(body !== undefined ? [`    data=${JSON.stringify(JSON.stringify(body))}.encode(),`] : []),
    ')',
    'with urllib.request.urlopen(request) as response:',
    '    print(json.dumps(json.load(response), indent=2))',
  ].join('\n');
}

/** JavaScript: fetch, as an ES module (top-level await). */
export function toJavaScript(method: 'GET' | 'POST', path: string, body?: unknown): string {
  const headers = ['Authorization: `Bearer ${process.env.API_TOKEN}`'];
  if (body !== undefined) headers.push("'Content-Type': 'application/json'");
  return [
    `const response = await fetch(process.env.API_BASE_URL + ${JSON.stringify(path)}, {`,
    `  method: '${method}',`,
    `  headers: { ${headers.join(', ')} },`,
    ...(body !== undefined ? [`  body: JSON.stringify(${JSON.stringify(body)}),`] : []),
    '});',
    'console.log(await response.json());',
  ].join('\n');
}
