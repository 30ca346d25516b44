# llmload's container image: a JRE and the runnable jar, which Maven builds outside the image.
#   ./mvnw -B -DskipTests package          # writes llmload-cli/target/llmload.jar
#   docker build -t llmload:0.1.0-SNAPSHOT .
# Kubernetes manifests that run it over many pods: deploy/kubernetes (docs/distributed.md).
# The jar runs on any Java of 21 or newer; the image is JRE 25, the newest LTS, on which llmload is
# built and tested, and whose ZGC is generational. The ENTRYPOINT's JVM flags are for 25 or newer:
# -XX:+UseCompactObjectHeaders is a product flag from 25 on (experimental in 24, unknown before,
# where the JVM refuses to start). An image on a JRE of 21 to 24 leaves that flag out, here and in
# deploy/kubernetes/merge-job.yaml; DeploymentFilesTest runs the flags on each such JDK installed.
FROM eclipse-temurin:25-jre

RUN groupadd --gid 10001 llmload \
    && useradd --uid 10001 --gid llmload --create-home --home-dir /home/llmload --shell /usr/sbin/nologin llmload

COPY llmload-cli/target/llmload.jar /opt/llmload/llmload.jar
# For --tokenizer tokenizer.json or o200k_base (docs/workloads.md), also:
# COPY llmload-cli/target/llmload-tokenizers.jar /opt/llmload/llmload-tokenizers.jar

USER 10001:10001
WORKDIR /home/llmload

# The JVM flags of the ./llmload launcher: ZGC keeps collection pauses far below a millisecond (a
# pause of the load generator would show up as latency of the server), and native access for the
# tokenizer library; a soft heap limit of 256 MiB, which ZGC keeps to unless the live data needs
# more, compact object headers, and Netty's flight-recorder events off, which nothing records and
# whose set-up costs start-up a tenth of a CPU-second (docs/performance.md). MaxRAMPercentage: by default the heap
# may take a quarter of the container's memory limit; a container that runs only llmload can give
# it three quarters, past the soft limit when a long run's records need it. More flags:
# JAVA_TOOL_OPTIONS.
ENTRYPOINT ["java", "-XX:+UseZGC", "-XX:SoftMaxHeapSize=256m", "-XX:MaxRAMPercentage=75", "--enable-native-access=ALL-UNNAMED", "-Dio.netty.jfr.enabled=false", "-XX:+UseCompactObjectHeaders", "-jar", "/opt/llmload/llmload.jar"]
CMD ["--help"]
