import { Module } from '@nestjs/common';
import { DisplayNames } from './display-names';
import { DisplayNamesRepository } from './display-names.repository';

/**
 * Names for the ids the API answers with (keys, credentials, pipes, dashboards, ...), read from the
 * gateway's own tables, for the audit log and the vault. Imports nothing but the database.
 */
@Module({
  providers: [DisplayNamesRepository, DisplayNames],
  exports: [DisplayNames],
})
export class DisplayNamesModule {}
