/**
 * The failures of opening the database, each with a message a person can act
 * on: the server cannot be reached, it refused the login, or its tables were
 * migrated by a newer version of this package. Messages name the address and
 * the user, never the password. Any other failure of a statement is Effect's
 * `SqlError`.
 *
 * @stability unstable
 * @since 0.3.0
 */
import * as Schema from "effect/Schema"

/**
 * No connection could be made: nothing listens at the address, the host is
 * unknown, or the server did not answer in time.
 *
 * @since 0.3.0
 * @category errors
 */
export class DatabaseUnreachableError extends Schema.TaggedError<DatabaseUnreachableError>(
  "@bitget-effect/sql/DatabaseUnreachableError"
)("DatabaseUnreachableError", {
  /** `host:port/database`. */
  address: Schema.String,
  /** What the connection attempt reported. */
  detail: Schema.String
}) {
  override get message(): string {
    return `Cannot reach the database at ${this.address}: ${this.detail}`
  }
}

/**
 * The server refused the login: a wrong password, or a user it does not
 * know or does not let in.
 *
 * @since 0.3.0
 * @category errors
 */
export class DatabaseAuthenticationError extends Schema.TaggedError<DatabaseAuthenticationError>(
  "@bitget-effect/sql/DatabaseAuthenticationError"
)("DatabaseAuthenticationError", {
  address: Schema.String,
  username: Schema.String,
  /** What the server said (it never repeats the password). */
  detail: Schema.String
}) {
  override get message(): string {
    return `The database at ${this.address} refused the login of user "${this.username}" (check the user and its password): ${this.detail}`
  }
}

/**
 * The database's tables were migrated further than this version of the
 * package knows: a newer `@bitget-effect/sql` wrote them, and this one could
 * misread them. Nothing was read or written.
 *
 * @since 0.3.0
 * @category errors
 */
export class SchemaVersionError extends Schema.TaggedError<SchemaVersionError>(
  "@bitget-effect/sql/SchemaVersionError"
)("SchemaVersionError", {
  /** The last migration the database records. */
  found: Schema.Number,
  /** The last migration this package has. */
  known: Schema.Number
}) {
  override get message(): string {
    return `The database's bitget tables are at migration ${this.found}, newer than this @bitget-effect/sql knows ` +
      `(${this.known}): upgrade @bitget-effect/sql to open it`
  }
}
