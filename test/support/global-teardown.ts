import { removeEmbeddedDatabaseImage } from './embedded-database-image';

export default removeEmbeddedDatabaseImage;
