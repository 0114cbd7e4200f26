/**
 * Child processes of the benchmark: forked modules of the bench's own build
 * (plain JavaScript, so no TypeScript loader shares a worker's memory) spoken
 * to over IPC, one request at a time, as JSON. The library under test is its
 * built `dist`, as published.
 */
import { fork } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import { fileURLToPath } from "node:url"

/** A forked module and a way to ask it one thing at a time. */
export interface Child<Request, Response> {
  readonly process: ChildProcess
  /** Sends `request` and resolves to the next message. */
  readonly ask: (request: Request) => Promise<Response>
  /** Resolves to the next message without sending anything. */
  readonly next: () => Promise<Response>
  /** Disconnects and waits for the exit. */
  readonly close: () => Promise<void>
}

/** How to start a module on a runtime: its binary and the arguments before the module's path. */
export interface Launcher {
  readonly execPath: string
  readonly execArgv: ReadonlyArray<string>
}

/** This Node, as it is. */
export const node: Launcher = { execPath: process.execPath, execArgv: [] }

/** Forks `module` (a path relative to this directory, e.g. `./worker.js`) with `args`, on Node unless told. */
export const spawn = <Request, Response>(
  module: string,
  args: ReadonlyArray<string>,
  launcher: Launcher = node
): Child<Request, Response> => {
  const child = fork(fileURLToPath(new URL(module, import.meta.url)), [...args], {
    execPath: launcher.execPath,
    execArgv: [...launcher.execArgv],
    serialization: "json",
    stdio: ["ignore", "inherit", "inherit", "ipc"]
  })
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  const next = () =>
    new Promise<Response>((resolve, reject) => {
      if (child.exitCode !== null) {
        return reject(new Error(`${module} ${args.join(" ")} has exited (code ${child.exitCode})`))
      }
      const onMessage = (message: Response) => {
        child.off("exit", onExit)
        resolve(message)
      }
      const onExit = (code: number | null) => {
        child.off("message", onMessage)
        reject(new Error(`${module} ${args.join(" ")} exited (code ${code}) before answering`))
      }
      child.once("message", onMessage)
      child.once("exit", onExit)
    })
  return {
    process: child,
    next,
    ask: (request) => {
      const answer = next()
      child.send(request as object)
      return answer
    },
    close: async () => {
      if (child.connected) child.disconnect()
      await exited
    }
  }
}
