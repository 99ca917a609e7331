# Smoke stage for docker/check.sh: built FROM the freshly built image, its one
# RUN step starts the real server exactly as the image would (same user, same
# environment, same /data) and exercises it; the build fails if any check
# fails. Building rather than `docker run`ning is what works where no
# container engine can run containers (podman build --isolation=chroot).
# The build context is docker/ itself, so the image's context stays clean.
ARG IMAGE=localhost/phantomgo:check
FROM ${IMAGE}
COPY smoke.sh /usr/local/lib/phantomgo-smoke.sh
RUN ["bash", "/usr/local/lib/phantomgo-smoke.sh"]
