#!/usr/bin/env bash
# Install tablectl on a Raspberry Pi 4 or 5 running 64-bit Raspberry Pi OS (Bookworm or later).
#
#   sudo firmware_config/install.sh            install, or bring an installation up to date
#   firmware_config/install.sh --dry-run       print every step, change nothing
#   sudo firmware_config/install.sh --force    also on a machine that is not a Pi (for trying)
#
# What it does, each step only when needed (a second run changes nothing and says so):
#   apt packages (picamera2, lgpio, venv), the user "tablectl" in the video and gpio groups,
#   a copy of this repository in /opt/tablectl/src, a venv in /opt/tablectl/venv made with
#   --system-site-packages (so picamera2 and lgpio are seen) with tablectl installed in it,
#   /etc/tablectl/table.toml (never overwritten once there), /usr/local/bin/tablectl, the
#   tablectl block of /boot/firmware/config.txt (a reboot applies it), the systemd unit
#   (installed and enabled), and the operator PIN (set once, with `tablectl pin reset`).
# At the end it prints what it changed and the dashboard's address.
set -euo pipefail

usage() {
    sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
}

DRY_RUN=0
FORCE=0
for arg in "$@"; do
    case "$arg" in
        --dry-run) DRY_RUN=1 ;;
        --force) FORCE=1 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $arg (see --help)" >&2; exit 2 ;;
    esac
done

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# TABLECTL_ROOT: install into a scratch tree instead of / (to try the script out)
ROOT=${TABLECTL_ROOT:-}
PREFIX=$ROOT/opt/tablectl
SRC=$PREFIX/src
VENV=$PREFIX/venv
ETC=$ROOT/etc/tablectl
UNIT=$ROOT/etc/systemd/system/tablectl.service
STATE=$ROOT/var/lib/tablectl
BIN_LINK=$ROOT/usr/local/bin/tablectl
BOOT_CONFIG=${TABLECTL_BOOT_CONFIG:-$ROOT/boot/firmware/config.txt}
MODEL_FILE=${TABLECTL_MODEL_FILE:-/proc/device-tree/model}
SERVICE_USER=tablectl
# picamera2 and lgpio come from Raspberry Pi OS (they cannot be pip-installed); numpy is the
# system's, which picamera2's compiled parts were built against; OpenCV comes as a
# self-contained wheel from PyPI (opencv-python-headless needs no GUI libraries)
APT_PACKAGES=(python3-venv python3-pip python3-numpy python3-picamera2 python3-lgpio)
FRAGMENT=$REPO/firmware_config/config.txt.fragment
BEGIN_MARK='# >>> tablectl >>>'
END_MARK='# <<< tablectl <<<'

CHANGED=()
REBOOT=0
RESTART=0

say() { printf '%s\n' "$*"; }
changed() { CHANGED+=("$1"); }
fail() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

# Print a step, and do it unless this is a dry run.
step() {
    if ((DRY_RUN)); then
        printf 'would run: %s\n' "$*"
    else
        printf '+ %s\n' "$*"
        "$@"
    fi
}

# --------------------------------------------------------------------------- is this a Pi?
preflight() {
    local model=""
    [[ -r $MODEL_FILE ]] && model=$(tr -d '\0' <"$MODEL_FILE")
    if [[ $model != "Raspberry Pi"* ]]; then
        ((FORCE)) || fail "this is not a Raspberry Pi (${MODEL_FILE} says '${model:-nothing}'); give --force to install anyway (the camera and the lights will be stand-ins)"
        say "not a Raspberry Pi (--force): going on"
    else
        say "board: $model"
    fi
    local version_id="" id=""
    if [[ -r /etc/os-release ]]; then
        # shellcheck disable=SC1091
        version_id=$(. /etc/os-release && echo "${VERSION_ID:-}")
        # shellcheck disable=SC1091
        id=$(. /etc/os-release && echo "${ID:-}")
    fi
    if [[ $id != debian && $id != raspbian ]] || ((${version_id:-0} < 12)); then
        ((FORCE)) || fail "Raspberry Pi OS Bookworm (Debian 12) or later is needed, this is '${id:-unknown} ${version_id:-?}'; give --force to try anyway"
    fi
    if [[ $(uname -m) != aarch64 && $(uname -m) != x86_64 ]]; then
        ((FORCE)) || fail "a 64-bit system is needed (this is $(uname -m)): install the 64-bit Raspberry Pi OS"
    fi
    if ((EUID != 0 && !DRY_RUN)) && [[ -z $ROOT ]]; then
        fail "run it as root: sudo $0 $*"
    fi
}

# --------------------------------------------------------------------------- apt
apt_packages() {
    local missing=() pkg
    for pkg in "${APT_PACKAGES[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
            missing+=("$pkg")
        fi
    done
    if ((${#missing[@]} == 0)); then
        say "ok: apt packages ${APT_PACKAGES[*]}"
        return
    fi
    step apt-get update
    step apt-get install -y --no-install-recommends "${missing[@]}"
    changed "installed apt packages: ${missing[*]}"
}

# --------------------------------------------------------------------------- the user
service_user() {
    if ! id -u "$SERVICE_USER" >/dev/null 2>&1; then
        step useradd --system --user-group --home-dir /var/lib/tablectl --no-create-home \
            --shell /usr/sbin/nologin "$SERVICE_USER"
        changed "created the system user $SERVICE_USER"
    else
        say "ok: user $SERVICE_USER"
    fi
    local group
    for group in video gpio; do
        if ! getent group "$group" >/dev/null; then
            say "no group $group here (not a Pi?): skipped"
        elif id -nG "$SERVICE_USER" 2>/dev/null | tr ' ' '\n' | grep -qx "$group"; then
            say "ok: $SERVICE_USER is in the $group group"
        else
            step usermod -aG "$group" "$SERVICE_USER"
            changed "added $SERVICE_USER to the $group group"
        fi
    done
}

# --------------------------------------------------------------------------- the software
SOURCE_ITEMS=(pyproject.toml README.md tablectl vision web firmware_config docs fixtures)

# A fingerprint of what would be installed: equal fingerprints, nothing to install.
source_stamp() {
    local items=() item
    for item in "${SOURCE_ITEMS[@]}"; do
        [[ -e $REPO/$item ]] && items+=("$item")
    done
    (cd "$REPO" && find "${items[@]}" -type f ! -path '*/__pycache__/*' ! -name '*.pyc' -print0 \
        | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
}

install_source() {
    local stamp=$1 items=() item
    if [[ -f $SRC/.tablectl-stamp && $(cat "$SRC/.tablectl-stamp") == "$stamp" ]]; then
        say "ok: $SRC is this repository's version"
        return
    fi
    for item in "${SOURCE_ITEMS[@]}"; do
        [[ -e $REPO/$item ]] && items+=("$item")
    done
    step rm -rf "$SRC"
    step mkdir -p "$SRC"
    if ((DRY_RUN)); then
        printf 'would run: tar -C %s -c %s | tar -C %s -x\n' "$REPO" "${items[*]}" "$SRC"
    else
        printf '+ tar -C %s -c %s | tar -C %s -x\n' "$REPO" "${items[*]}" "$SRC"
        tar -C "$REPO" --exclude=__pycache__ --exclude='*.pyc' -cf - "${items[@]}" \
            | tar -C "$SRC" -xf -
        printf '%s\n' "$stamp" >"$SRC/.tablectl-stamp"
    fi
    changed "copied the software to $SRC"
    RESTART=1
}

install_venv() {
    local stamp=$1
    if [[ -x $VENV/bin/python ]] && grep -q '^include-system-site-packages = true' "$VENV/pyvenv.cfg"; then
        say "ok: venv $VENV (with the system's site packages)"
    else
        step rm -rf "$VENV"
        step python3 -m venv --system-site-packages "$VENV"
        changed "created the venv $VENV"
    fi
    if [[ -f $VENV/.tablectl-stamp && $(cat "$VENV/.tablectl-stamp") == "$stamp" ]]; then
        say "ok: tablectl installed in the venv"
        return
    fi
    # picamera2's compiled parts are built against the system's numpy: keep the venv on its
    # major version (numpy 2 in the venv breaks them on Bookworm's numpy 1)
    local constraints=$PREFIX/constraints.txt major
    major=$(python3 -c 'import numpy; print(numpy.__version__.split(".")[0])' 2>/dev/null || echo "")
    if ((DRY_RUN)); then
        printf 'would write %s: numpy<%s\n' "$constraints" "$((${major:-1} + 1))"
    else
        printf 'numpy<%s\n' "$((${major:-1} + 1))" >"$constraints"
    fi
    step "$VENV/bin/pip" install --quiet --constraint "$constraints" "$SRC"
    if ((!DRY_RUN)); then
        printf '%s\n' "$stamp" >"$VENV/.tablectl-stamp"
    fi
    changed "installed tablectl into $VENV"
    RESTART=1
}

install_config() {
    local shipped=$REPO/firmware_config/table.toml
    if [[ ! -f $ETC/table.toml ]]; then
        step install -D -m 0644 "$shipped" "$ETC/table.toml"
        changed "wrote $ETC/table.toml (the shipped defaults: edit it for your table)"
    elif cmp -s "$shipped" "$ETC/table.toml"; then
        say "ok: $ETC/table.toml"
    else
        say "ok: kept your $ETC/table.toml (the shipped one differs: compare with $shipped)"
    fi
    # the service rewrites table.toml when the operator calibrates from the phone
    if [[ -d $ETC ]] && [[ $(stat -c '%G %a' "$ETC") == "$SERVICE_USER 2775" ]]; then
        say "ok: $ETC belongs to the $SERVICE_USER group"
    else
        step chgrp -R "$SERVICE_USER" "$ETC"
        step chmod 2775 "$ETC"
        step chmod g+w "$ETC/table.toml"
        changed "gave $ETC to the $SERVICE_USER group (calibration from the phone)"
    fi
    if [[ ! -d $STATE ]]; then
        step install -d -m 0750 "$STATE"
        step chown "$SERVICE_USER:$SERVICE_USER" "$STATE"
        changed "made the state folder $STATE"
    elif [[ $(stat -c %U "$STATE") != "$SERVICE_USER" ]]; then
        step chown "$SERVICE_USER:$SERVICE_USER" "$STATE"
        changed "gave $STATE to $SERVICE_USER"
    else
        say "ok: state folder $STATE"
    fi
    if [[ $(readlink "$BIN_LINK" 2>/dev/null) != "$VENV/bin/tablectl" ]]; then
        step mkdir -p "$(dirname "$BIN_LINK")"
        step ln -sfn "$VENV/bin/tablectl" "$BIN_LINK"
        changed "linked $BIN_LINK"
    else
        say "ok: $BIN_LINK"
    fi
}

# --------------------------------------------------------------------------- config.txt
# config.txt with the tablectl block put in (replacing an older one, else appended).
boot_config_with_block() {
    local block
    block=$(sed -n "/^${BEGIN_MARK}\$/,/^${END_MARK}\$/p" "$FRAGMENT")
    awk -v begin="$BEGIN_MARK" -v end="$END_MARK" -v block="$block" '
        $0 == begin { skipping = 1; if (!done) { print block; done = 1 } ; next }
        skipping && $0 == end { skipping = 0; next }
        !skipping { print }
        END { if (!done) { print ""; print block } }
    ' "$BOOT_CONFIG"
}

install_boot_config() {
    if [[ ! -f $BOOT_CONFIG ]]; then
        say "no $BOOT_CONFIG: config.txt left alone (not a Pi?)"
        return
    fi
    local wanted
    wanted=$(mktemp)
    boot_config_with_block >"$wanted"
    if cmp -s "$wanted" "$BOOT_CONFIG"; then
        say "ok: $BOOT_CONFIG holds the tablectl block"
        rm -f "$wanted"
        return
    fi
    step cp -p "$BOOT_CONFIG" "$BOOT_CONFIG.before-tablectl"
    if ((DRY_RUN)); then
        say "would write $BOOT_CONFIG with the block of $FRAGMENT:"
        diff -u "$BOOT_CONFIG" "$wanted" || true
    else
        say "+ write the block of $FRAGMENT into $BOOT_CONFIG"
        cat "$wanted" >"$BOOT_CONFIG"
    fi
    rm -f "$wanted"
    changed "updated $BOOT_CONFIG (the old one is $BOOT_CONFIG.before-tablectl)"
    REBOOT=1
}

# --------------------------------------------------------------------------- the service
install_unit() {
    local shipped=$REPO/firmware_config/tablectl.service
    if cmp -s "$shipped" "$UNIT"; then
        say "ok: $UNIT"
    else
        step install -D -m 0644 "$shipped" "$UNIT"
        step systemctl daemon-reload
        changed "installed $UNIT"
        RESTART=1
    fi
    if systemctl is-enabled --quiet tablectl.service 2>/dev/null; then
        say "ok: tablectl.service is enabled"
    else
        step systemctl enable tablectl.service
        changed "enabled tablectl.service (it starts at boot)"
    fi
}

operator_pin() {
    if [[ -f $STATE/operator_pin ]]; then
        say "ok: the operator PIN is set (a new one: sudo -u $SERVICE_USER tablectl pin reset)"
        return
    fi
    step runuser -u "$SERVICE_USER" -- "$VENV/bin/tablectl" pin reset --config "$ETC/table.toml"
    changed "set the operator PIN (printed above: note it)"
}

start_service() {
    if ((REBOOT)); then
        return
    fi
    if ((RESTART)) || ! systemctl is-active --quiet tablectl.service 2>/dev/null; then
        step systemctl restart tablectl.service
        changed "(re)started tablectl.service"
    fi
}

dashboard_address() {
    local port host
    port=$(python3 - "$ETC/table.toml" 2>/dev/null <<'EOF' || echo 8765
import sys, tomllib
try:
    with open(sys.argv[1], "rb") as f:
        print(tomllib.load(f).get("dashboard", {}).get("port", 8765))
except OSError:
    print(8765)
EOF
)
    host=$(hostname -I 2>/dev/null | awk '{print $1}')
    printf 'http://%s:%s/' "${host:-$(hostname).local}" "$port"
}

main() {
    preflight "$@"
    ((DRY_RUN)) && say "dry run: printing every step, changing nothing"
    local stamp
    stamp=$(source_stamp)
    apt_packages
    service_user
    install_source "$stamp"
    install_venv "$stamp"
    install_config
    install_boot_config
    install_unit
    operator_pin
    start_service
    say ""
    if ((${#CHANGED[@]} == 0)); then
        say "Nothing changed: tablectl is installed and up to date."
    else
        if ((DRY_RUN)); then say "A real run would change:"; else say "Changed:"; fi
        printf '  - %s\n' "${CHANGED[@]}"
    fi
    ((REBOOT)) && say "Reboot to apply config.txt (the table starts by itself): sudo reboot"
    say "Check the hardware: sudo -u $SERVICE_USER tablectl doctor --blink"
    say "dashboard: $(dashboard_address)"
    ((DRY_RUN)) && say "Dry run: nothing was changed."
    return 0
}

main "$@"
