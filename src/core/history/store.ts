// What a history store is (D26): the records serve keeps of its clusters, appended as they come and
// read by cluster, container and time. The embedded store is SQLite (sqlite-store.ts); the same
// interface is what a store on NATS JetStream implements (issue 47): appends are queued and never
// throw, reads are asynchronous, and what a store could not keep is counted, not thrown.
import type { LineTest } from "../containers/grep.ts";

/** A container as the store knows it: a cluster's id and the engine's id and name. */
export interface StoredContainerRef {
  cluster: number;
  /** The engine's full id. */
  id: string;
  /** Its name, without docker's leading `/`. */
  name: string;
}

/** One engine event, as the event stream sent it. */
export interface StoredEvent {
  cluster: number;
  /** Milliseconds since the epoch. */
  time: number;
  /** The engine's `timeNano`, as text (it is beyond 2^53): with `cluster`, its key. */
  timeNano: string;
  /** The engine's event body. */
  event: Record<string, unknown>;
}

/** A container's record: its inspect body (secrets redacted) when something happened to it. */
export interface ContainerRecord extends StoredContainerRef {
  /** When it was taken, in ms. */
  time: number;
  image: string;
  /** `State.Status` when it was taken: `running`, `exited`, ... */
  state: string;
  /** `State.ExitCode`, once it ran and stopped. */
  exitCode: number | null;
  /** When the engine said it was destroyed, in ms; `null` while it exists. */
  removed: number | null;
  /** The engine's inspect body, its environment's secrets redacted. */
  inspect: Record<string, unknown>;
}

/** One line a container wrote. */
export interface StoredLogLine extends StoredContainerRef {
  /** Microseconds since the epoch, as the engine stamped it. */
  timeUs: number;
  stream: "stdout" | "stderr";
  /**
   * Its place among the lines of its stream with the same microsecond, counted from 0 by whoever
   * read them in order: what a read since that microsecond sends again gets the same keys.
   */
  seq: number;
  text: string;
}

/** The figures of one stats sample (core/containers/stats.ts's summary). */
export interface StoredStatsFigures {
  cpuPercent: number;
  memoryUsage: number;
  memoryLimit: number;
  netRx: number;
  netTx: number;
  blockRead: number;
  blockWrite: number;
  pids: number;
}

/** One stats sample of a container. */
export interface StoredStatsSample extends StoredContainerRef, StoredStatsFigures {
  /** Milliseconds since the epoch. */
  time: number;
}

/** Which records a read wants: the clusters it may see (a scoped token's), a window in ms. */
export interface HistoryWindow {
  clusters: readonly number[];
  since?: number;
  until?: number;
}

/** A container named by name or id (a prefix of at least one character). */
export interface ContainerQuery extends HistoryWindow {
  container: string;
}

/** What a store says of itself, for `/healthz` and `/metrics`. */
export interface HistoryStatus {
  /** Why it cannot keep records now; none while it can. */
  problem?: string;
  /** Records it could not keep, since it opened. */
  dropped: number;
  /** Bytes it holds now. */
  bytes: number;
}

/** Where recording should resume on a cluster after a restart: after the last it kept. */
export interface ResumePoint {
  /** The last event's `timeNano`. */
  eventTimeNano?: string;
  /** The last line's time, in µs, of each container (by id) that has lines. */
  logTimesUs: ReadonlyMap<string, number>;
}

/** A history store. */
export interface HistoryStore {
  appendEvents(events: readonly StoredEvent[]): void;
  putContainer(record: ContainerRecord): void;
  appendLogs(lines: readonly StoredLogLine[]): void;
  appendStats(samples: readonly StoredStatsSample[]): void;
  /** Write what is queued now. */
  flush(): Promise<void>;
  /** The last record of each container, removed ones too, newest first; by name when given. */
  containers(query: HistoryWindow & { name?: string }): Promise<ContainerRecord[]>;
  /** Events in the window, oldest first, of one container when named; `limit` the newest. */
  events(query: HistoryWindow & { container?: string; limit: number }): Promise<StoredEvent[]>;
  /** One container's lines (every container that had that name or id), oldest first. */
  logs(query: ContainerQuery & { tail?: number; match?: LineTest }): Promise<StoredLogLine[]>;
  /** Stats of the containers named (all when none), averaged over each `stepMs`. */
  stats(query: HistoryWindow & { container?: string; stepMs: number }): Promise<StatsSeries[]>;
  resumePoint(cluster: number): Promise<ResumePoint>;
  /** Delete what is older than the retention's age, then the oldest until under its size. */
  prune(): Promise<void>;
  status(): HistoryStatus;
  close(): Promise<void>;
}

/** The samples of one container, one point per step. */
export interface StatsSeries {
  container: StoredContainerRef;
  points: Array<StoredStatsFigures & { time: number }>;
}
