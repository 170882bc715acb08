/**
 * A value that breaks one of the rules in domain/. `field` names the value in the rule's words
 * (`duration`, `slug`, `sku`, …); the message says what was wrong and what to write instead.
 * Each surface words the field for its users at its edge: the CLI as commander's usage error
 * naming the option, the admin API as a 400 INVALID_REQUEST naming the body field, the
 * settings as a ConfigError naming the variable.
 */
export class DomainError extends Error {
  override name = 'DomainError';

  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}
