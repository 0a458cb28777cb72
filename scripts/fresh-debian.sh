#!/usr/bin/env bash
# The README's quick start on a bare Debian 12, as a new user meets it.
#
#   scripts/fresh-debian.sh [--no-cuda] [--check quick|full|none] [--keep] [--root DIR]
#
# As root:
#  1. builds a minimal Debian 12 root with debootstrap (--variant=minbase,
#     from the Debian mirror this machine's apt sources name, or $MIRROR);
#  2. configures it as this machine is configured to reach the package
#     registries: apt sources (and the keyrings they name), /etc/hosts,
#     /etc/resolv.conf, pip's configuration with the CA bundle it names, the
#     local CA certificates, and the PIP_* settings of the environment;
#  3. mounts the root on itself, /proc, /sys (with its cgroup file systems),
#     /dev and a /dev/shm of its own (what MPI and Slurm need),
#     and, without --no-cuda, this machine's CUDA toolkit read-only at the
#     same path with /usr/local/cuda pointing to it; all of it is unmounted,
#     and every process left inside is ended, on every exit path;
#  4. clones the commit under test (HEAD of this repository) into
#     /root/mpiscope inside the root;
#  5. runs the README's quick start there, line by line, exactly as written,
#     as root in a login-like environment. --check says what its `make check`
#     line runs: full (as written, the default), quick (`make check-quick`,
#     the subset CI runs in a fresh root), none (the line is left out).
#
# With --no-cuda the root has no CUDA toolkit, and the script checks that the
# build left CUPTI out. The root is removed at the end unless --keep is given
# (DIR: where to build it; default a new directory under /var/tmp).
# Prints each step's time; exits with the first failing step's status.
set -euo pipefail

cuda=1 check=full keep=0 root=
while [ $# -gt 0 ]; do
    case "$1" in
        --no-cuda) cuda=0 ;;
        --check) check=${2:?--check needs quick, full or none}; shift ;;
        --check=*) check=${1#--check=} ;;
        --keep) keep=1 ;;
        --root) root=${2:?--root needs a directory}; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "fresh-debian.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
case "$check" in quick|full|none) ;; *) echo "fresh-debian.sh: --check wants quick, full or none" >&2; exit 2 ;; esac
[ "$(id -u)" -eq 0 ] || { echo "fresh-debian.sh: run as root (debootstrap, chroot, mount)" >&2; exit 2; }
repo=$(cd "$(dirname "$0")/.." && pwd)
commit=$(git -C "$repo" rev-parse HEAD)
if [ -n "$(git -C "$repo" status --porcelain --untracked-files=no)" ]; then
    echo "fresh-debian.sh: note: uncommitted changes are not tested, only commit $commit"
fi
command -v debootstrap >/dev/null || { echo "fresh-debian.sh: debootstrap not found (scripts/deps.sh installs it)" >&2; exit 2; }

say() { echo "fresh-debian: $*"; }
t0=$(date +%s)
step_start=$t0
times=()
step() { # step NAME: closes the previous step's timing
    local now
    now=$(date +%s)
    [ -n "${step_name:-}" ] && times+=("$step_name $((now - step_start)) s")
    step_name=$1 step_start=$now
    [ -n "$1" ] && say "== $1"
    return 0
}

# The Debian mirror of this machine's apt sources (deb822 or one-line form).
mirror() {
    local f u
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -e "$f" ] || continue
        u=$(awk '/^URIs:/ {uri=$2} /^Suites:/ && /bookworm( |$)/ && uri {print uri; exit}' "$f")
        [ -n "$u" ] && { echo "$u"; return; }
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -e "$f" ] || continue
        u=$(awk '$1 == "deb" && $3 == "bookworm" {print $2; exit}' "$f")
        [ -n "$u" ] && { echo "$u"; return; }
    done
    echo http://deb.debian.org/debian
}
MIRROR=${MIRROR:-$(mirror)}

if [ -z "$root" ]; then
    root=$(mktemp -d /var/tmp/mpiscope-fresh.XXXXXX)
else
    mkdir -p "$root"
fi
root=$(cd "$root" && pwd)
# It becomes /: other users (the daemons' and apt's) must traverse it.
chmod 755 "$root"
mounted=()

cleanup() {
    local rc=$? pid m i
    set +e
    # Processes still running inside the root (a daemon a test left, an MPI
    # proxy): ended before their mounts go.
    for sig in TERM KILL; do
        for pid in $(ls /proc | grep -E '^[0-9]+$'); do
            [ "$(readlink "/proc/$pid/root" 2>/dev/null)" = "$root" ] && kill -"$sig" "$pid" 2>/dev/null
        done
        [ $sig = TERM ] && sleep 1
    done
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
        m=${mounted[i]}
        umount -R "$m" 2>/dev/null || umount -R -l "$m" 2>/dev/null || echo "fresh-debian: cannot unmount $m" >&2
    done
    if grep -q -E " $root(/| )" /proc/mounts; then
        echo "fresh-debian: still mounted under $root, not removed:" >&2
        grep -E " $root(/| )" /proc/mounts >&2
    elif [ $keep = 0 ]; then
        rm -rf "$root"
    else
        say "kept $root"
    fi
    step ""
    for line in "${times[@]}"; do say "time: $line"; done
    say "total $(($(date +%s) - t0)) s, exit $rc"
    exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

mnt() { # mnt TARGET MOUNT-ARGS...
    local target=$1
    shift
    mkdir -p "$target"
    mount "$@" "$target"
    mounted+=("$target")
}

step "debootstrap --variant=minbase bookworm $root ($MIRROR)"
debootstrap --variant=minbase bookworm "$root" "$MIRROR" >"$root.debootstrap.log" 2>&1 ||
    { tail -20 "$root.debootstrap.log"; rm -f "$root.debootstrap.log"; exit 1; }
rm -f "$root.debootstrap.log"

step "registry configuration carried in"
declare -A carried=()
carry() { # carry PATH...: copies each existing file to the same path in the root
    local f
    for f in "$@"; do
        [ -f "$f" ] && [ -z "${carried[$f]:-}" ] || continue
        carried[$f]=1
        mkdir -p "$root$(dirname "$f")"
        cp -L "$f" "$root$f"
        say "  $f"
    done
}
rm -f "$root/etc/apt/sources.list"
carry /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    carry $(grep -o -E '(signed-by=|Signed-By: *)[^] ]+' "$f" | sed -E 's/^(signed-by=|Signed-By: *)//' | sort -u)
done
carry $(grep -l -s -E '^\s*Acquire' /etc/apt/apt.conf.d/* || true)
carry /etc/hosts /etc/resolv.conf
carry /etc/pip.conf /etc/xdg/pip/pip.conf /root/.pip/pip.conf /root/.config/pip/pip.conf
for f in /etc/pip.conf /etc/xdg/pip/pip.conf /root/.pip/pip.conf /root/.config/pip/pip.conf; do
    [ -f "$f" ] && carry $(sed -n -E 's/^\s*cert\s*=\s*//p' "$f")
done
[ -n "${PIP_CERT:-}" ] && carry "$PIP_CERT"
carry /etc/ssl/certs/ca-certificates.crt /usr/local/share/ca-certificates/*.crt

step "mounts"
# The root is a mount point of its own, as / is on a machine (a private mount
# namespace inside it, as test/config.sh makes, needs that).
mnt "$root" --bind "$root"
mnt "$root/proc" -t proc proc
mnt "$root/sys" --rbind /sys        # with /sys/fs/cgroup, as a booted machine has
mount --make-rslave "$root/sys"
mnt "$root/dev" --bind /dev
mnt "$root/dev/shm" -t tmpfs -o mode=1777 shm
if [ $cuda = 1 ]; then
    toolkit=$(readlink -f "${CUDA_HOME:-/usr/local/cuda}")
    [ -f "$toolkit/include/cupti.h" ] || { echo "fresh-debian.sh: no CUDA toolkit at ${CUDA_HOME:-/usr/local/cuda} (use --no-cuda)" >&2; exit 2; }
    mnt "$root$toolkit" --bind "$toolkit"
    mount -o remount,ro,bind "$root$toolkit"
    [ "$toolkit" = /usr/local/cuda ] || ln -sfn "$toolkit" "$root/usr/local/cuda"
    say "  CUDA toolkit $toolkit (read-only)"
fi

step "clone $commit"
git clone -q --no-hardlinks "$repo" "$root/root/mpiscope"
git -C "$root/root/mpiscope" checkout -q --detach "$commit"

# The README's quick start: the first ```sh block after "## Quick start".
mapfile -t lines < <(awk '/^## Quick start/ {q=1; next} q && /^```sh/ {b=1; next} b && /^```/ {exit} b' "$repo/README.md")
[ ${#lines[@]} -gt 0 ] || { echo "fresh-debian.sh: README.md has no quick-start block" >&2; exit 1; }
env_in=(HOME=/root USER=root LOGNAME=root SHELL=/bin/sh LANG=C.UTF-8 TERM="${TERM:-dumb}"
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)
[ -n "${CI:-}" ] && env_in+=(CI="$CI")
while IFS= read -r v; do env_in+=("$v"); done < <(env | grep -E '^PIP_[A-Z_]+=' || true)
inside() { # inside COMMAND: runs it with sh in the clone, as root, without a terminal
    # In the background, waited for: a signal to this script ends it at once
    # (cleanup then ends what runs inside and unmounts).
    chroot "$root" /usr/bin/env -i "${env_in[@]}" /bin/sh -c "cd /root/mpiscope && $1" </dev/null &
    local child=$!
    wait $child
}
for line in "${lines[@]}"; do
    cmd=${line%%#*}
    cmd=$(echo "$cmd" | sed 's/[[:space:]]*$//')
    [ -n "$cmd" ] || continue
    case "$cmd" in
        "make check")
            case "$check" in
                none) say "left out: $cmd (--check none)"; continue ;;
                quick) cmd="make check-quick"; say "the README's make check runs as make check-quick (--check quick)" ;;
            esac ;;
    esac
    step "# $cmd"
    inside "$cmd"
done

step "configuration inside"
config=$(inside "make -s config")
echo "$config"
if [ $cuda = 0 ]; then
    grep -q '^HAVE_CUPTI=0' <<<"$config" || { echo "fresh-debian.sh: CUPTI was built in without a CUDA toolkit" >&2; exit 1; }
    say "CUPTI left out, as it must be without CUDA"
fi
say "the README's quick start passed on a fresh Debian 12 root ($([ $cuda = 1 ] && echo with || echo without) CUDA, make check: $check)"
