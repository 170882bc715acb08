/**
 * Secrets of the installation (issue 41): values every process of one installation shares,
 * such as the key that signs sync tokens, kept in the database (installation_secrets,
 * migration 11) so that every instance reads the same, and `db copy` and backups carry them.
 * Values are text (the caller chooses their encoding).
 */
export interface InstallationStore {
  /**
   * The secret of this name: the stored one, or `candidate`, stored now when none is. Two
   * processes asking at once get the same value (the first stored wins).
   */
  installationSecret(name: string, candidate: string): Promise<string>;
  /** Replaces the secret of this name (or stores it); returns when it was stored (epoch ms). */
  replaceInstallationSecret(name: string, value: string): Promise<number>;
}
