#!/usr/bin/env node
import { main } from "../dist/cli.mjs";

await main();
