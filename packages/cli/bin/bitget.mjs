#!/usr/bin/env node
// The bitget command, compiled to dist/ (in the bitget-effect repository: npx -y pnpm@10 build).
import "../dist/esm/bin/bitget.js"
