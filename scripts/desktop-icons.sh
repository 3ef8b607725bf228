#!/usr/bin/env bash
# Makes the desktop app's icons (crates/desktop/icons/*.png, icon.ico) from
# their SVG sources in crates/desktop/icons/svg/, with rsvg-convert (Debian
# librsvg2-bin) and ffmpeg (the .ico). The results are committed; run this
# after changing an SVG.
set -euo pipefail
cd "$(dirname "$0")/../crates/desktop/icons"
for size in 32 128; do rsvg-convert -w $size -h $size svg/app.svg -o ${size}x${size}.png; done
rsvg-convert -w 256 -h 256 svg/app.svg -o 128x128@2x.png
rsvg-convert -w 512 -h 512 svg/app.svg -o icon.png
for look in idle recording paused warning; do
  rsvg-convert -w 64 -h 64 svg/tray-$look.svg -o tray-$look.png
done
ffmpeg -loglevel error -y -i 128x128@2x.png icon.ico
echo "desktop-icons: made $(ls *.png icon.ico | wc -l) files in $(pwd)"
