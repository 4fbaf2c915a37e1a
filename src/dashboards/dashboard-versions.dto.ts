import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ACTOR_FORMS } from '../auth/actors';

export class DashboardVersionSummaryView {
  @ApiProperty({ description: 'Starts at 1 per dashboard; each replace or restore stores one.' })
  version!: number;
  @ApiProperty({ description: `Whose write replaced this content: ${ACTOR_FORMS}.` }) actor!: string;
  @ApiPropertyOptional({ nullable: true, type: String }) onBehalfOf!: string | null;
  @ApiProperty({ description: 'When it was replaced (the content is what it was before).' }) createdAt!: Date;
  @ApiProperty() tileCount!: number;
  @ApiProperty({ description: 'The ETag this content had.' }) etag!: string;
}

export class DashboardVersionView extends DashboardVersionSummaryView {
  @ApiProperty({ description: 'The dashboard as the upstream returned it before it was replaced.' })
  data!: unknown;
}

export class DashboardVersionListView {
  @ApiProperty({ type: [DashboardVersionSummaryView] }) items!: DashboardVersionSummaryView[];
  @ApiProperty({ nullable: true, type: String }) nextCursor!: string | null;
}
