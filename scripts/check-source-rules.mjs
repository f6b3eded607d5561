// Source rules that Biome does not check: no line of our code is wider than 120 characters, including
// the SQL, HTML and message text inside template literals that the formatter leaves as written.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const LINE_WIDTH_MAX = 120;
const SOURCE = /\.(ts|mts|mjs|js)$/;
const IGNORED = [/^fixtures\//, /\/generated\//];

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
  .split('\n')
  .filter((file) => SOURCE.test(file) && !IGNORED.some((pattern) => pattern.test(file)));

const problems = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    continue; // deleted in the work tree
  }
  text.split('\n').forEach((line, index) => {
    if (line.length > LINE_WIDTH_MAX)
      problems.push(`${file}:${index + 1}: ${line.length} characters (max ${LINE_WIDTH_MAX})`);
  });
}
for (const problem of problems) console.error(problem);
if (problems.length > 0) {
  console.error(`${problems.length} problem(s)`);
  process.exit(1);
}
console.log(`source rules: ${files.length} files checked, no problems`);
