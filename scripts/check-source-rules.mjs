// Source rules that Biome does not check:
// - no line of our code is wider than 120 characters, including the SQL, HTML and message text inside
//   template literals that the formatter leaves as written;
// - one door to the database: outside libs/db, only repositories (*.repository.ts) run statements or
//   Prisma queries, and statements are declared only in *.sql.ts files (tests may inspect rows directly);
// - apps import only libs: a file of one app never imports a file of another app (what two apps share
//   belongs in a lib), and no lib imports an app.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const LINE_WIDTH_MAX = 120;
const SOURCE = /\.(ts|mts|mjs|js)$/;
const IGNORED = [/^fixtures\//, /\/generated\//];
/** The module specifier of a static import or export, a dynamic import() or a require(), on one line. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/g;

const TEST_FILE = /(\.spec|\.int-spec|\.e2e-spec|\.fault-spec)\.ts$|^test\/|\/test\//;
const DATABASE_DOOR = [
  { pattern: /\b(db|database)\.(prisma|executor|sql)\b/, allowed: /\.repository\.ts$/ },
  { pattern: /\.query\(|\.query</, allowed: /\.repository\.ts$/ },
  { pattern: /\bsql<|\bsql\(`/, allowed: /\.sql\.ts$/ },
];

/** Product code outside libs/db and the console (which speaks only HTTP). */
function isDatabaseClient(file) {
  return /^(apps|libs)\//.test(file) && !/^(libs\/db|apps\/console)\//.test(file) && !TEST_FILE.test(file);
}

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
  .split('\n')
  .filter((file) => SOURCE.test(file) && !IGNORED.some((pattern) => pattern.test(file)));

/** `api` for apps/api/src/main.ts; undefined outside apps/. */
function appOf(file) {
  return /^apps\/([^/]+)\//.exec(file)?.[1];
}

/** Why importing `specifier` from `file` crosses from one app, or from a lib, into an app; or undefined. */
function crossingOf(file, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const target = appOf(path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)));
  if (target === undefined) return undefined;
  const app = appOf(file);
  if (app !== undefined && app !== target) return `imports ${specifier} from apps/${target}: apps import only libs`;
  if (file.startsWith('libs/')) return `imports ${specifier} from apps/${target}: no lib imports an app`;
  return undefined;
}

function lineProblems(file, line, number) {
  const problems = [];
  if (line.length > LINE_WIDTH_MAX)
    problems.push(`${file}:${number}: ${line.length} characters (max ${LINE_WIDTH_MAX})`);
  if (file.startsWith('apps/') || file.startsWith('libs/')) {
    for (const match of line.matchAll(SPECIFIER)) {
      const crossing = crossingOf(file, match[1]);
      if (crossing !== undefined) problems.push(`${file}:${number}: ${crossing}`);
    }
  }
  if (isDatabaseClient(file)) {
    const rule = DATABASE_DOOR.find((candidate) => candidate.pattern.test(line) && !candidate.allowed.test(file));
    if (rule !== undefined) problems.push(`${file}:${number}: database access outside a repository: ${line.trim()}`);
  }
  return problems;
}

const problems = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    continue; // deleted in the work tree
  }
  text.split('\n').forEach((line, index) => {
    problems.push(...lineProblems(file, line, index + 1));
  });
}
for (const problem of problems) console.error(problem);
if (problems.length > 0) {
  console.error(`${problems.length} problem(s)`);
  process.exit(1);
}
console.log(`source rules: ${files.length} files checked, no problems`);
