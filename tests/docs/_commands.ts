/**
 * The shell commands of a Markdown document, and a bash script that runs
 * them as a reader would: in order, in one shell, a node in its own
 * "terminal" (the background) while the rest go on.
 *
 * @module
 */

/**
 * The commands in the fenced `sh` blocks of `markdown`, in order: comment and
 * blank lines dropped, lines continued with a backslash kept together.
 *
 * @example
 * ```ts
 * import { shellCommands } from "./_commands.ts";
 * shellCommands("\x60\x60\x60sh\necho a \\\n  b\n# note\n\x60\x60\x60\n"); // ["echo a \\\n  b"]
 * ```
 */
export function shellCommands(markdown: string): string[] {
  const commands: string[] = [];
  let inBlock = false;
  let pending: string[] = [];
  for (const line of markdown.split("\n")) {
    if (!inBlock) {
      if (/^```(sh|bash|shell)\s*$/.test(line)) inBlock = true;
      continue;
    }
    if (/^```\s*$/.test(line)) {
      if (pending.length > 0) throw new Error(`a block ends inside a continued command: ${pending.join("\n")}`);
      inBlock = false;
      continue;
    }
    if (pending.length === 0 && (line.trim() === "" || line.trimStart().startsWith("#"))) continue;
    pending.push(line);
    if (!line.endsWith("\\")) {
      commands.push(pending.join("\n"));
      pending = [];
    }
  }
  if (inBlock) throw new Error("a fenced block is never closed");
  return commands;
}

/** Whether `command` starts a node (it runs until stopped, in a terminal of its own). */
export function startsNode(command: string): boolean {
  return /(^|\s)(cli\.ts|svc|@svc\/cli) serve(\s|$)/.test(command);
}

/** Whether `command` runs the test suite (CI runs the README's test command itself). */
export function runsSuite(command: string): boolean {
  return /(^|\s)task test\s*$/.test(command);
}

const PREAMBLE = String.raw`exec 2>&1
set -e
trap 'echo "docs test: exit $? from: $BASH_COMMAND" >&2' ERR
__node_pid=""
__stop_node() {
  [ -n "$__node_pid" ] || return 0
  echo "docs test: Ctrl-C to the node" >&2
  kill -INT -- "-$__node_pid" 2>/dev/null || true
  for _ in $(seq 1 "$__stop_tenths"); do kill -0 -- "-$__node_pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 -- "-$__node_pid" 2>/dev/null; then
    echo "docs test: the node did not stop on Ctrl-C" >&2
    kill -KILL -- "-$__node_pid" 2>/dev/null || true
    __node_pid=""
    return 1
  fi
  grep -q "svc node stopping (SIGINT)" "$__node_log" || { echo "docs test: the node did not say it stopped" >&2; return 1; }
  __node_pid=""
}
trap '__stop_node' EXIT
# What the first start put in Deno's cache and node_modules (KiB, hard links once), written once to $__size_file.
__measure_first_start() {
  [ -n "$__size_file" ] && [ ! -s "$__size_file" ] || return 0
  du -skc "$DENO_DIR" node_modules 2>/dev/null | tail -n 1 | cut -f 1 >"$__size_file"
  echo "docs test: the first start left $(cat "$__size_file") KiB in Deno's cache and node_modules" >&2
}
__serve() {
  local command
  command=$(cat)
  __stop_node
  __node_log=$(mktemp)
  echo "\$ $command    # (in its own terminal)" >&2
  # Job control gives the node a process group of its own and leaves SIGINT to it, as a terminal does.
  set -m
  bash -c "$command" >"$__node_log" 2>&1 &
  __node_pid=$!
  set +m
  for _ in $(seq 1 1200); do
    if grep -q "svc node serving" "$__node_log"; then cat "$__node_log" >&2; __measure_first_start; return 0; fi
    kill -0 "$__node_pid" 2>/dev/null || break
    sleep 0.1
  done
  cat "$__node_log" >&2
  echo "docs test: the node did not start" >&2
  return 1
}
`;

/**
 * A bash script running `commands` in order under `set -e`: commands that
 * start a node run in the background in a session of their own (stopping the
 * node before, as with Ctrl-C in its terminal, which must stop it within
 * `stopSeconds`, default 30); each command is echoed before it runs. With
 * `sizeFile`, once the first node has started, the KiB in Deno's cache
 * (`DENO_DIR`) and `node_modules` together are written there.
 *
 * @example
 * ```ts
 * import { docsScript } from "./_commands.ts";
 * docsScript(["echo hi"]).includes("echo hi"); // true
 * ```
 */
export function docsScript(commands: string[], options: { stopSeconds?: number; sizeFile?: string } = {}): string {
  const lines = [
    `__stop_tenths=${Math.round((options.stopSeconds ?? 30) * 10)}`,
    `__size_file=${options.sizeFile ? `'${options.sizeFile.replaceAll("'", `'"'"'`)}'` : ""}`,
    PREAMBLE,
  ];
  commands.forEach((command, i) => {
    const end = `__SVC_DOCS_${i}__`;
    if (startsNode(command)) {
      lines.push(`__serve <<'${end}'\n${command}\n${end}`);
    } else {
      lines.push(`cat >&2 <<'${end}'\n$ ${command}\n${end}`, command);
    }
  });
  lines.push("__stop_node", "echo 'docs test: every command succeeded' >&2");
  return lines.join("\n") + "\n";
}
