import { buildEmbeddedDatabaseImage } from './embedded-database-image';

export default buildEmbeddedDatabaseImage;
