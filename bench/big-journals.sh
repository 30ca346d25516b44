# Shared by bench/big-report.sh and bench/merge-scale.sh (sourced): builds the runnable jar and the
# benchmark classes, makes a template segment directory from a real run against the built-in
# simulator, and defines big_journals OUT REQUESTS SEGMENTS (dev.llmload.bench.BenchJournals).
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/bin/java-home.sh"
llmload_select_jdk
WORK=${WORK:-$(mktemp -d /tmp/llmload-bigruns.XXXXXX)}
mkdir -p "$WORK"
(cd "$root" && ./mvnw -o -B -q -Pbench -DskipTests package -pl llmload-cli,llmload-bench -am >"$WORK/build.log" 2>&1) \
  || { echo "build failed: $WORK/build.log" >&2; exit 1; }
jar="$root/llmload-cli/target/llmload.jar"
if [ ! -f "$WORK/template/report.json" ]; then
  port=${PORT:-$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")}
  "$JAVA_HOME/bin/java" -jar "$jar" sim --host 127.0.0.1 --port "$port" >"$WORK/sim.log" 2>&1 &
  sim=$!
  for _ in $(seq 60); do grep -q "127.0.0.1:$port" "$WORK/sim.log" 2>/dev/null && break; sleep 1; done
  "$JAVA_HOME/bin/java" -jar "$jar" run --url "http://127.0.0.1:$port" --segment 0/1 --request-rate 1000 \
    --num-requests 20 --output-dir "$WORK/template" >"$WORK/template.log" 2>&1
  rc=$?
  kill "$sim" 2>/dev/null; wait "$sim" 2>/dev/null
  [ $rc = 0 ] || { echo "template run failed: $WORK/template.log" >&2; exit 1; }
fi
big_journals() {
  "$JAVA_HOME/bin/java" -cp "$root/llmload-bench/target/classes:$jar" dev.llmload.bench.BenchJournals \
    "$WORK/template" "$1" "$2" "$3"
}
# Runs llmload with HEAP (-Xmx) and prints wall and CPU seconds, peak RSS and the last console line.
timed_llmload() {
  /usr/bin/time -f '%e s wall, %U s user + %S s sys CPU, %M KiB peak RSS' -o "$WORK/time.txt" \
    "$JAVA_HOME/bin/java" -XX:+UseZGC -Xmx"$HEAP" -jar "$jar" "$@" >"$WORK/console.txt" 2>&1
  local rc=$?
  echo "exit $rc, $(cat "$WORK/time.txt" | tail -1); $(tail -1 "$WORK/console.txt")"
}
