# Sourced by scripts/test.sh and scripts/sanitizers.sh (which define say and die): checks the
# toolchain and installs the Debian packages the suites run (ffmpeg, VLC, mkchromecast,
# chromium and the system tools of the namespace suites).
command -v swift >/dev/null || die "swift is not on PATH (install the Swift 6 toolchain)"
command -v python3 >/dev/null || die "python3 is not on PATH"
pkg-config --exists openssl || {
    say "installing libssl-dev"
    apt-get update -qq && apt-get install -y -qq libssl-dev >/dev/null || die "libssl-dev is missing and could not be installed"
}
# tool:Debian package
for pair in openssl:openssl curl:curl tmux:tmux ip:iproute2 unshare:util-linux setpriv:util-linux ffmpeg:ffmpeg chromium:chromium; do
    tool="${pair%%:*}" package="${pair##*:}"
    command -v "$tool" >/dev/null || {
        say "installing $package (for $tool)"
        apt-get update -qq && apt-get install -y -qq "$package" >/dev/null || die "$tool is missing and $package could not be installed"
    }
done
python3 -c 'import venv, ensurepip' 2>/dev/null || die "python3 lacks venv/ensurepip (install python3-venv)"
# mkchromecast (Debian, on Debian's PyChromecast) for the other-senders interop suite; the ALSA
# flavour, since the suite casts a URL and needs no sound server.
command -v mkchromecast >/dev/null || {
    say "installing mkchromecast"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        mkchromecast mkchromecast-alsa >/dev/null || die "mkchromecast is missing and could not be installed"
}
# VLC 3 for the VLC interop suite: the Chromecast output is in vlc-plugin-base. The suite runs
# it as nobody (VLC refuses root) inside a loopback-only namespace.
if ! command -v cvlc >/dev/null || ! dpkg-query -W -f='${Status}' vlc-plugin-base 2>/dev/null | grep -q 'ok installed'; then
    say "installing vlc-bin and vlc-plugin-base"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        vlc-bin vlc-plugin-base >/dev/null || die "VLC is missing and vlc-bin/vlc-plugin-base could not be installed"
fi

