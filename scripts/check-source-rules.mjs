// Source rules that Biome does not check:
// - no line of our code is wider than 120 characters, including the SQL, HTML and message text inside
//   template literals that the formatter leaves as written;
// - one door to the database: outside libs/db, only repositories (*.repository.ts) run statements or
//   Prisma queries, and statements are declared only in *.sql.ts files;
// - apps never import each other: what two apps share is a lib.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const LINE_WIDTH_MAX = 120;
const SOURCE = /\.(ts|mts|mjs|js)$/;
const IGNORED = [/^fixtures\//, /\/generated\//];
const TEST_FILE = /(\.spec|\.int-spec|\.e2e-spec|\.fault-spec)\.ts$|^test\/|\/test\//;

const DATABASE_DOOR = [
  { pattern: /\bdb\.(prisma|executor|sql)\b|\bdatabase\.(prisma|executor|sql)\b/, allowed: /\.repository\.ts$/ },
  { pattern: /\.query\(|\.query</, allowed: /\.repository\.ts$/ },
  { pattern: /\bsql<|\bsql\(`/, allowed: /\.sql\.ts$/ },
];

function sourceFiles() {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
    .split('\n')
    .filter((file) => SOURCE.test(file) && !IGNORED.some((pattern) => pattern.test(file)));
}

function lineProblems(file, lines) {
  const problems = [];
  lines.forEach((line, index) => {
    if (line.length > LINE_WIDTH_MAX) {
      problems.push(`${file}:${index + 1}: ${line.length} characters (max ${LINE_WIDTH_MAX})`);
    }
  });
  return problems;
}

function doorProblems(file, lines) {
  const isProductCode = /^(apps|libs)\//.test(file) && !file.startsWith('libs/db/') && !TEST_FILE.test(file);
  if (!isProductCode || file.startsWith('apps/console/')) return [];
  const problems = [];
  lines.forEach((line, index) => {
    for (const rule of DATABASE_DOOR) {
      if (rule.pattern.test(line) && !rule.allowed.test(file)) {
        problems.push(`${file}:${index + 1}: database access outside a repository: ${line.trim().slice(0, 80)}`);
      }
    }
  });
  return problems;
}

function appImportProblems(file, lines) {
  const app = /^apps\/([^/]+)\//.exec(file)?.[1];
  if (app === undefined) return [];
  const problems = [];
  lines.forEach((line, index) => {
    const target = /from '((?:\.\.\/)+)(?:apps\/)?([^/']+)\//.exec(line);
    if (target === null) return;
    const depth = file.split('/').length - 1;
    const climbed = target[1].length / 3;
    // ../ as many times as the file is deep under apps/<app>/ reaches apps/: the next folder is another app.
    if (climbed >= depth - 1 && target[2] !== app) {
      problems.push(`${file}:${index + 1}: imports another app (${line.trim()}): share it through a lib`);
    }
  });
  return problems;
}

const files = sourceFiles();
const problems = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    continue; // deleted in the work tree
  }
  const lines = text.split('\n');
  problems.push(...lineProblems(file, lines), ...doorProblems(file, lines), ...appImportProblems(file, lines));
}
for (const problem of problems) console.error(problem);
if (problems.length > 0) {
  console.error(`${problems.length} problem(s)`);
  process.exit(1);
}
console.log(`source rules: ${files.length} files checked, no problems`);
