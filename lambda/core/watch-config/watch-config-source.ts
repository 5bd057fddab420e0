// The live watch config's ports: where the current version is read (a versioned object store) and the small
// memo of the last good version that lets a cold start skip the download and a bad version be refused once.
// docs/watch-config-store.md says why the store is a versioned S3 object and what each change means.

/** One stored version of the watch config, as its text. */
export interface WatchConfigVersion {
  /** The store's id of this version (S3's version id). */
  versionId: string;
  /** The store's entity tag of the content, quotes and all, as sent back in If-None-Match. */
  etag: string;
  text: string;
  /**
   * Set when the stored object is longer than the reader takes (its size in bytes): the text was not
   * downloaded (it is empty), and the version is refused for its size like any bad version.
   */
  tooLongBytes?: number;
}

/** What a conditional read found: the same content as `ifNoneMatch` (nothing downloaded), or a version. */
export type WatchConfigFetch = { changed: false } | { changed: true; version: WatchConfigVersion };

export interface WatchConfigSource {
  /** Where the config lives, for messages (e.g. `s3://bucket/watch.json`). */
  readonly location: string;
  /** The current version, or `changed: false` when its ETag is still `ifNoneMatch` (one conditional GET). */
  fetchCurrent(ifNoneMatch?: string): Promise<WatchConfigFetch>;
  /** One earlier version by id (a cold start whose memo holds no text and whose current version is bad). */
  fetchVersion(versionId: string): Promise<WatchConfigVersion>;
}

/** A version the function refused, remembered so that the operator is told once per version. */
export interface RejectedConfigVersion {
  versionId: string;
  etag: string;
  /** The problems, one line each with its JSON path: the first ones only, when there are many (see problemCount). */
  problems: string[];
  /** How many problems there were in all. */
  problemCount: number;
}

/** The last good version in use (and the text when it fits the memo), and the last refused one if any. */
export interface WatchConfigMemo {
  good: { versionId: string; etag: string; text?: string };
  rejected?: RejectedConfigVersion;
}

export interface WatchConfigMemoStore {
  readConfigMemo(): Promise<WatchConfigMemo | null>;
  writeConfigMemo(memo: WatchConfigMemo): Promise<void>;
}
