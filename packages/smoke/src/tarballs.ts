/**
 * `npx -y pnpm@10 tarballs`: builds (the root script), then packs every public
 * package into `tarballs/` at the repository's root, the install route until
 * a release is on npm (the README's Install section). The folder holds one
 * tarball per package, so a glob such as `tarballs/bitget-effect-core-*.tgz`
 * names exactly one file.
 */
import { join } from "node:path"
import { pack, root } from "./packages.js"

for (const tarball of pack(join(root, "tarballs"))) console.log(tarball)
